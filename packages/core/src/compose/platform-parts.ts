import type { JoinDeps } from '../lifecycle/join-deps.js';
import { CloudJoin, type CloudJoinOptions } from '../lifecycle/cloud-instance.js';
import { readPayloadManifest, type PayloadEntry } from '../desired/payload-manifest.js';
import { CloudNodeManager } from '../provider/capabilities/cloud-node-manager.js';
import { HostRename } from '../provider/capabilities/host-rename.js';
import { HostnameOverride } from '../provider/capabilities/hostname-override.js';
import { ImageCredentialProvider } from '../provider/capabilities/image-credential-provider.js';
import { InstanceIdentity } from '../provider/capabilities/instance-identity.js';
import { InstanceTagging } from '../provider/capabilities/instance-tagging.js';
import { MachineAccess } from '../provider/capabilities/machine-access.js';
import { MetadataRoutes } from '../provider/capabilities/metadata-routes.js';
import { PlatformPrerequisites } from '../provider/capabilities/platform-prerequisites.js';
import { UserDataFormat } from '../provider/capabilities/user-data-format.js';
import type { WmcoCore } from './create-wmco-core.js';

/** What the platform's provider adds to every node, and the payload manifest with its files. */
export interface PlatformParts {
  readonly capabilities: JoinDeps['capabilities'];
  readonly payload: readonly PayloadEntry[];
  readonly providerFiles: JoinDeps['providerFiles'];
  /** The platform's supported Windows Server releases: a join on another build is refused. */
  readonly windowsBuilds: JoinDeps['windowsBuilds'];
  /** The cloud capabilities a BYOH join uses (AWS, Azure, GCP). */
  readonly cloud: { readonly identity?: InstanceIdentity; readonly tagging?: InstanceTagging };
  /** What the Machine source needs from the provider (every provider registers MachineAccess and UserDataFormat). */
  readonly machines: {
    readonly access: MachineAccess | undefined;
    readonly userDataFormat: UserDataFormat | undefined;
    readonly hostRename: HostRename | undefined;
    /**
     * A Machine's kubelet takes its node name from the cloud's metadata (a HostnameOverride and no
     * HostRename: AWS, GCP), not from the computer name.
     */
    readonly nodeNameFromCloud?: boolean;
  };
}

/**
 * The selected provider's capabilities and the payload manifest (plus the provider's binaries), the way
 * the controllers and `wmco plan` both describe a node, so that the two never disagree.
 */
export async function platformParts(wmco: WmcoCore, payloadDir: string): Promise<PlatformParts> {
  const capabilities = {
    hostnameOverride: wmco.tryResolve(HostnameOverride),
    cloudNodeManager: wmco.tryResolve(CloudNodeManager),
    imageCredentialProvider: wmco.tryResolve(ImageCredentialProvider),
    metadataRoutes: wmco.tryResolve(MetadataRoutes),
  };
  const extraPayload = [
    ...(capabilities.cloudNodeManager?.payload() ?? []),
    ...(capabilities.imageCredentialProvider?.payload() ?? []),
  ];
  const payload = await readPayloadManifest(payloadDir, extraPayload);
  const identity = wmco.tryResolve(InstanceIdentity);
  const tagging = wmco.tryResolve(InstanceTagging);
  const machines = {
    access: wmco.tryResolve(MachineAccess),
    userDataFormat: wmco.tryResolve(UserDataFormat),
    hostRename: wmco.tryResolve(HostRename),
  };
  const nodeNameFromCloud = capabilities.hostnameOverride !== undefined && machines.hostRename === undefined;
  return {
    capabilities,
    payload,
    providerFiles: capabilities.hostnameOverride?.files ?? [],
    windowsBuilds: windowsBuilds(wmco),
    cloud: { ...(identity ? { identity } : {}), ...(tagging ? { tagging } : {}) },
    machines: { ...machines, nodeNameFromCloud },
  };
}

/** The supported Windows Server releases of the selected provider, when it states them. */
function windowsBuilds(wmco: WmcoCore): JoinDeps['windowsBuilds'] {
  const prerequisites = wmco.tryResolve(PlatformPrerequisites);
  return prerequisites ? { platform: wmco.platform, supported: prerequisites.supportedBuilds } : undefined;
}

/** The cloud's part of joins and removals, on a platform whose provider can identify instances. */
export function cloudJoin(
  cloud: PlatformParts['cloud'],
  options: Omit<CloudJoinOptions, 'identity' | 'tagging'>,
): CloudJoin | undefined {
  return cloud.identity ? new CloudJoin({ ...cloud, ...options }) : undefined;
}
