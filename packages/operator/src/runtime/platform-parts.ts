import { CloudJoin, type CloudJoinOptions, type JoinDeps } from '@wmco/core/internal';
import {
  CloudNodeManager,
  CloudContext,
  HostRename,
  HostnameOverride,
  ImageCredentialProvider,
  InstanceIdentity,
  InstanceTagging,
  MachineAccess,
  UserDataFormat,
  MetadataRoutes,
  PlatformPrerequisites,
  type DependencyContainer,
  type WmcoProvider,
} from '@wmco/core/provider';
import { createWmcoCore, readPayloadManifest, type PayloadEntry } from '@wmco/core';

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
  };
}

export interface PlatformPartsInput {
  readonly container: DependencyContainer;
  readonly providers: readonly WmcoProvider[];
  /** `infrastructure/cluster .status.platformStatus.type`. */
  readonly platform: string;
  readonly payloadDir: string;
  /** How the cloud capabilities read the cluster (credentials, endpoints); without it they are "not configured". */
  readonly cloudContext?: CloudContext | undefined;
}

/**
 * Selects the platform's provider and reads the payload manifest (plus the provider's binaries), the way
 * `wmco run` and `wmco plan` both describe a node, so that the two never disagree.
 */
export async function platformParts(input: PlatformPartsInput): Promise<PlatformParts> {
  if (input.cloudContext) input.container.register(CloudContext, { useValue: input.cloudContext });
  const wmco = createWmcoCore({
    parent: input.container,
    providers: input.providers,
    platform: input.platform,
  });
  const capabilities = {
    hostnameOverride: wmco.tryResolve<HostnameOverride>(HostnameOverride),
    cloudNodeManager: wmco.tryResolve<CloudNodeManager>(CloudNodeManager),
    imageCredentialProvider: wmco.tryResolve<ImageCredentialProvider>(ImageCredentialProvider),
    metadataRoutes: wmco.tryResolve<MetadataRoutes>(MetadataRoutes),
  };
  const extraPayload = [
    ...(capabilities.cloudNodeManager?.payload() ?? []),
    ...(capabilities.imageCredentialProvider?.payload() ?? []),
  ];
  const payload = await readPayloadManifest(input.payloadDir, extraPayload);
  const identity = wmco.tryResolve<InstanceIdentity>(InstanceIdentity);
  const tagging = wmco.tryResolve<InstanceTagging>(InstanceTagging);
  const machines = {
    access: wmco.tryResolve<MachineAccess>(MachineAccess),
    userDataFormat: wmco.tryResolve<UserDataFormat>(UserDataFormat),
    hostRename: wmco.tryResolve<HostRename>(HostRename),
  };
  return {
    capabilities,
    payload,
    providerFiles: capabilities.hostnameOverride?.files ?? [],
    windowsBuilds: windowsBuilds(wmco, input.platform),
    cloud: { ...(identity ? { identity } : {}), ...(tagging ? { tagging } : {}) },
    machines,
  };
}

/** The supported Windows Server releases of the selected provider, when it states them. */
function windowsBuilds(wmco: ReturnType<typeof createWmcoCore>, platform: string): JoinDeps['windowsBuilds'] {
  const prerequisites = wmco.tryResolve<PlatformPrerequisites>(PlatformPrerequisites);
  return prerequisites ? { platform, supported: prerequisites.supportedBuilds } : undefined;
}

/** The cloud's part of joins and removals, on a platform whose provider can identify instances. */
export function cloudJoin(
  cloud: PlatformParts['cloud'],
  options: Omit<CloudJoinOptions, 'identity' | 'tagging'>,
): CloudJoin | undefined {
  return cloud.identity ? new CloudJoin({ ...cloud, ...options }) : undefined;
}
