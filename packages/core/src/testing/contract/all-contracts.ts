import type { CapabilityContract } from './capability-contract.js';
import { cloudNodeManagerContract } from './cloud-node-manager-contract.js';
import { hostRenameContract } from './host-rename-contract.js';
import { hostnameOverrideContract } from './hostname-override-contract.js';
import { imageCredentialProviderContract } from './image-credential-provider-contract.js';
import { firewallFactsContract } from './firewall-facts-contract.js';
import { instanceIdentityContract } from './instance-identity-contract.js';
import { instanceTaggingContract } from './instance-tagging-contract.js';
import { machineAccessContract } from './machine-access-contract.js';
import { metadataRoutesContract } from './metadata-routes-contract.js';
import { platformPrerequisitesContract } from './platform-prerequisites-contract.js';
import { userDataFormatContract } from './user-data-format-contract.js';

/** The suite's knowledge of every capability of contract version 1, by token. */
export const CAPABILITY_CONTRACTS: ReadonlyMap<symbol, CapabilityContract<unknown>> = new Map(
  [
    machineAccessContract,
    userDataFormatContract,
    hostnameOverrideContract,
    hostRenameContract,
    cloudNodeManagerContract,
    imageCredentialProviderContract,
    metadataRoutesContract,
    instanceIdentityContract,
    instanceTaggingContract,
    firewallFactsContract,
    platformPrerequisitesContract,
  ].map((c) => [c.capability, c as CapabilityContract<unknown>]),
);
