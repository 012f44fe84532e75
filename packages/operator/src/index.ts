export { buildProgram } from './cli/program.js';
export type { CliContext } from './cli/cli-context.js';
export {
  BUILTIN_PROVIDER_IDS,
  BUILTIN_PROVIDER_PACKAGES,
  type BuiltinProviderId,
} from './providers/builtin-providers.js';
export {
  loadBakedProviders,
  loadBuiltinProviders,
  parseBakedProviders,
} from './providers/baked-providers.js';
export { loadProviderPackage, loadProviders } from './providers/load-provider-package.js';
