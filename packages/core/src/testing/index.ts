// @wmco/core/testing: the provider contract suite and its helpers. Import it from tests only.
export { describeProviderContract } from './describe-provider-contract.js';
export { powershellSyntaxErrors } from './powershell-syntax.js';
export { MissingPeerDependencyError } from './optional-peers.js';
// The contract types the suite's signatures use (the contract itself is '@wmco/core/provider').
export type { WmcoProvider } from '../provider/define-provider.js';
export type { PlatformType } from '../provider/platform.js';
export type { Token } from '../provider/token.js';
export type { CapabilityResolver, Constructor, ProviderRegistrar } from '../provider/registrar.js';
export type { WmcoError } from '../provider/errors.js';
export { authorizedKeyLine, sshPublicKeyFixtures, type SshPublicKeyFixture } from './ssh-key-fixtures.js';
export { isAbsoluteWindowsPath } from './contract/assertions.js';
export { operatorScripts, userDataPowerShell, type ProviderScripts } from './operator-scripts.js';
