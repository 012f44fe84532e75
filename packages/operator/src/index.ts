export { buildProgram } from './cli/program.js';
export type { CliContext } from './cli/cli-context.js';
export { BUILTIN_PROVIDERS } from './providers/builtin-providers.js';
export { loadProviderPackage, loadProviders } from './providers/load-provider-package.js';
