import type { Token } from '../token.js';
import { CloudNodeManager } from './cloud-node-manager.js';
import { HostRename } from './host-rename.js';
import { HostnameOverride } from './hostname-override.js';
import { ImageCredentialProvider } from './image-credential-provider.js';
import { FirewallFacts } from './firewall-facts.js';
import { InstanceIdentity } from './instance-identity.js';
import { InstanceTagging } from './instance-tagging.js';
import { MachineAccess } from './machine-access.js';
import { MetadataRoutes } from './metadata-routes.js';
import { PlatformPrerequisites } from './platform-prerequisites.js';
import { UserDataFormat } from './user-data-format.js';

/** Every platform capability of this contract version, in the order `wmco providers` lists them. */
export const ALL_CAPABILITIES: readonly Token<unknown>[] = [
  MachineAccess,
  UserDataFormat,
  HostnameOverride,
  HostRename,
  CloudNodeManager,
  ImageCredentialProvider,
  MetadataRoutes,
  InstanceIdentity,
  InstanceTagging,
  FirewallFacts,
  PlatformPrerequisites,
];
