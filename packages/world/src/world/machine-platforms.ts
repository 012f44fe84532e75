import type { CloudInstance } from '@wmco/core/provider';
import { cloudCapabilities } from '../clouds/cloud-capabilities.test-helper.js';
import { ROOT_CREDENTIALS, staticCloudContext } from '@wmco/operator';
import type { SimWorld, SimulatedWindowsHost } from './sim-world.js';
import type { MachineView } from './world-machines.js';

/** The platforms with a machine-api: the three simulated clouds and the two directly provisioned ones. */
export const MACHINE_PLATFORMS = ['VSphere', 'Nutanix', 'AWS', 'Azure', 'GCP'] as const;
const CLOUDS: ReadonlySet<string> = new Set(['AWS', 'Azure', 'GCP']);

export function hasCloud(platform: string): boolean {
  return CLOUDS.has(platform);
}

function address(m: MachineView, type: string): string | undefined {
  return m.status?.addresses?.find((a) => a.type === type)?.address;
}

/**
 * The node name a Machine's kubelet registers on each platform: the Machine name after HostRename
 * (vSphere, Nutanix); the private DNS name from EC2's metadata (AWS); the VM's computer name, which is
 * the Machine name (Azure); the instance's zonal DNS name from GCE's metadata (GCP).
 */
const NODE_NAME: Readonly<Record<string, (m: MachineView) => string | undefined>> = {
  VSphere: (m) => m.metadata.name,
  Nutanix: (m) => m.metadata.name,
  AWS: (m) => address(m, 'InternalDNS'),
  Azure: (m) => m.metadata.name,
  GCP: (m) => address(m, 'InternalDNS'),
};

export function expectedNodeName(platform: string, m: MachineView): string | undefined {
  return NODE_NAME[platform]?.(m);
}

/** `spec.providerID` as each machine-api provider writes it. */
export const PROVIDER_ID: Readonly<Record<string, RegExp>> = {
  VSphere: /^vsphere:\/\/[0-9a-f-]{36}$/,
  Nutanix: /^nutanix:\/\/[0-9a-f-]{36}$/,
  AWS: /^aws:\/\/\/us-east-2a\/i-[0-9a-f]{17}$/,
  Azure:
    /^azure:\/\/\/subscriptions\/[0-9a-f-]{36}\/resourceGroups\/wmco-sim-rg\/providers\/Microsoft\.Compute\/virtualMachines\/[a-z0-9-]+$/,
  GCP: /^gce:\/\/wmco-sim-project\/us-central1-a\/[a-z0-9-]+$/,
};

/** Looks instances up through the platform provider's real cloud SDK client, as the operator does. */
export function cloudLookup(world: SimWorld): (address: string) => Promise<CloudInstance | undefined> {
  const cloud = world.cloud;
  if (!cloud) throw new Error('the world has no simulated cloud');
  const provider = world.providers.find((p) => p.platforms.includes(cloud.platform));
  if (!provider) throw new Error(`no provider for ${cloud.platform}`);
  const caps = cloudCapabilities(
    provider,
    staticCloudContext({
      credentials: ROOT_CREDENTIALS,
      infrastructureName: world.cluster.infrastructureName,
      platformStatus: cloud.platformStatus(),
      caBundle: cloud.caPem,
      secrets: [cloud.credentialsSecret()],
    }),
  );
  return (a) => caps.identity.identify(a);
}

const running = (h: SimulatedWindowsHost, service: string): boolean =>
  h.model.scm.get(service)?.state === 'running';

/** What else each platform puts on a Machine's host, as [what, holds]. */
const SPECIFICS: Readonly<Record<string, (h: SimulatedWindowsHost, m: MachineView) => [string, boolean]>> = {
  VSphere: (h, m) => [
    'computer name is the Machine name',
    h.model.hostname.toLowerCase() === m.metadata.name,
  ],
  Nutanix: (h, m) => [
    'computer name is the Machine name',
    h.model.hostname.toLowerCase() === m.metadata.name,
  ],
  AWS: (h) => [
    'the EC2 metadata route, made persistent by the user data (EC2Launch v2)',
    h.model.routes.some((r) => r.destinationPrefix === '169.254.169.254/32') &&
      !h.model.volatileRoutes.has('169.254.169.254/32'),
  ],
  Azure: (h) => ['cloud-node-manager runs', running(h, 'cloud-node-manager')],
  GCP: (h) => ['the GCP hostname script', h.model.files.isFile('C:\\Temp\\gcp-get-hostname.ps1')],
};

export function platformSpecifics(
  platform: string,
  host: SimulatedWindowsHost | undefined,
  m: MachineView,
): [string, boolean] {
  const check = SPECIFICS[platform];
  if (!check) return ['no specifics', true];
  return host ? check(host, m) : ['the host is up', false];
}
