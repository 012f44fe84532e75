export { MachineAccess } from './machine-access.js';
export { UserDataFormat } from './user-data-format.js';
export { HostnameOverride } from './hostname-override.js';
export { HostRename } from './host-rename.js';
export { CloudNodeManager } from './cloud-node-manager.js';
export { ImageCredentialProvider } from './image-credential-provider.js';
export { MetadataRoutes } from './metadata-routes.js';
export {
  InstanceTagging,
  ownershipValue,
  type CloudTag,
  type TagMode,
  type TagResult,
} from './instance-tagging.js';
export { InstanceIdentity, type CloudInstance } from './instance-identity.js';
export { FirewallFacts, type PortReach } from './firewall-facts.js';
export { CloudContext, CLOUD_REQUEST_TIMEOUT_MS, cloudRequestTimeoutMs } from './cloud-context.js';
export {
  credentialsRequestName,
  credentialsSecret,
  readCredentialsSecret,
  CREDENTIALS_REQUEST_NAMESPACE,
  DEFAULT_OPERATOR_NAMESPACE,
  MINTED_CREDENTIALS_SECRET,
  type CloudCredentials,
  type CloudCredentialsMode,
  type CredentialsSecret,
  type SecretRef,
} from './cloud-credentials.js';
export { PlatformPrerequisites } from './platform-prerequisites.js';
export { ALL_CAPABILITIES } from './all-capabilities.js';
