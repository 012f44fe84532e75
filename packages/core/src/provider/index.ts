// @wmco/core/provider: the plugin contract, and nothing else. Third-party providers import only this.
export { injectable, inject } from '../di.js';
export type { DependencyContainer } from '../di.js';
export { token, tokenId, type Token } from './token.js';
export { FIRST_PARTY_PLATFORMS, isPlatformName, type PlatformType } from './platform.js';
export { CONTRACT_VERSION, supportsContract, type ContractRange } from './contract-version.js';
export * from './errors.js';
export {
  InstanceOutsideClusterNetworkError,
  pickInClusterNetwork,
  type OutsideNetworkMatch,
} from './cloud-network-error.js';
export type { CapabilityResolver, Constructor, ProviderRegistrar } from './registrar.js';
export {
  defineProvider,
  providerCapabilities,
  type ProviderSpec,
  type WmcoProvider,
} from './define-provider.js';
export { registerProvider, type RegisteredProvider } from './register-provider.js';
export * from './capabilities/index.js';
export type * from './types/windows-service-spec.js';
export type * from './types/payload-file.js';
export type * from './types/route.js';
export * from './types/windows-build.js';
export { WindowsPaths } from './types/windows-paths.js';
export { windowsServiceSpecSchema, serviceSpecProblems } from './types/windows-service-spec-schema.js';
