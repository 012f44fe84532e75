// @wmco/core/testing: the provider contract suite and its helpers. Import it from tests only.
export { describeProviderContract } from './describe-provider-contract.js';
export { powershellSyntaxErrors } from './powershell-syntax.js';
export { MissingPeerDependencyError } from './optional-peers.js';
export { authorizedKeyLine, sshPublicKeyFixtures, type SshPublicKeyFixture } from './ssh-key-fixtures.js';
export { isAbsoluteWindowsPath } from './contract/assertions.js';
