import {
  armMint,
  ec2Mint,
  gceMint,
  ArmMachineCloud,
  Ec2MachineCloud,
  GceMachineCloud,
  SimArm,
  SimEc2,
  SimGce,
  type CloudFaults,
  type CloudMint,
  type CloudRefusal,
  type MachineCloud,
  type SimCloudInstance,
} from '@wmco/sim';
import { atAddress, CONTROL_PLANE_IPS, type SimNetwork } from './sim-cloud-network.js';

/** One running simulated cloud, whatever the platform, as `wmco sim` and the world use it. */
export interface SimCloud {
  readonly platform: string;
  readonly url: string;
  readonly caPem: string;
  /** Faults the cloud answers the next matching calls with (throttling, unauthorized, ...), for tests. */
  readonly faults: CloudFaults;
  /** Calls the cloud refused for want of a permission (who, and which permission). */
  readonly refused: readonly CloudRefusal[];
  /** What the cloud credential operator stand-in has the cloud mint for a CredentialsRequest. */
  readonly mint: CloudMint;
  /** `infrastructure/cluster .status.platformStatus.<platform>` pointing the SDK at the simulated endpoint. */
  platformStatus(): Record<string, unknown>;
  /** The credentials Secret as OpenShift's installer writes it. */
  credentialsSecret(): { namespace: string; name: string; data: Record<string, string> };
  /**
   * Makes a simulated Windows host an instance of this cloud; returns the cloud's instance id.
   * `metadataHostname` is what the host's simulated metadata service answers (EC2 `local-hostname`), so
   * the cloud's private DNS name and the host's own view agree as on EC2.
   */
  addHost(address: string, hostname: string, metadataHostname?: string, network?: SimNetwork): string;
  /**
   * The cluster's own control-plane instances, as the installer leaves them: in the cluster's network,
   * tagged (labelled) `owned` for `infrastructureName`, at private IPs no host uses (10.0.0.10-12). The
   * providers read the cluster's network from them.
   */
  addControlPlane(infrastructureName: string): void;
  /** Every instance with this private IP, in any network: its id, network and tags (labels). */
  instancesAt(address: string): { id: string; network: string; tags: Record<string, string> }[];
  /** The `region`/`zone` and `credentials` members of F.cloud.json (files it needs go into `files`). */
  cloudFileFields(files: { write(name: string, content: string): string }): Record<string, unknown>;
  /** The cloud as its machine-api provider uses it: Machines' instances are created in it. */
  readonly machines: MachineCloud;
  /** The instance behind a provider ID while it exists: its tags/labels and stored user data. */
  instance(providerId: string): { tags: Record<string, string>; userData: string | undefined } | undefined;
  close(): Promise<void>;
}

function view(
  i: SimCloudInstance | undefined,
): { tags: Record<string, string>; userData: string | undefined } | undefined {
  return i ? { tags: i.tagRecord(), userData: i.userData } : undefined;
}

async function awsCloud(): Promise<SimCloud> {
  const ec2 = await SimEc2.start({ region: 'us-east-2' });
  let peer: string | undefined;
  const peerVpc = (): string => (peer ??= ec2.state.addVpc());
  return {
    platform: 'AWS',
    url: ec2.url,
    caPem: ec2.caPem,
    faults: ec2.faults,
    refused: ec2.iam.refused,
    mint: ec2Mint(ec2),
    platformStatus: () => ec2.platformStatus(),
    credentialsSecret: () => ec2.credentialsSecret(),
    addHost: (address, hostname, metadataHostname, network) =>
      ec2.addInstance({
        privateIp: address,
        name: hostname,
        tags: { Name: hostname },
        ...(metadataHostname ? { privateDnsName: metadataHostname } : {}),
        ...(network === 'peer' ? { network: peerVpc() } : {}),
      }).id,
    addControlPlane: (infra) =>
      CONTROL_PLANE_IPS.forEach((privateIp, n) =>
        ec2.addInstance({
          privateIp,
          name: `${infra}-master-${n}`,
          tags: { [`kubernetes.io/cluster/${infra}`]: 'owned', Name: `${infra}-master-${n}` },
        }),
      ),
    instancesAt: (address) => atAddress(ec2.state.instances.values(), address, (i) => i.id),
    cloudFileFields: () => ({
      region: ec2.region,
      credentials: {
        accessKeyId: ec2.credentials.accessKeyId,
        secretAccessKey: ec2.credentials.secretAccessKey,
      },
    }),
    machines: new Ec2MachineCloud(ec2),
    instance: (providerId) => view(ec2.state.instances.get(providerId.split('/').pop() ?? '')),
    close: () => ec2.close(),
  };
}

const GCP_SIM = { project: 'wmco-sim-project', region: 'us-central1', zone: 'us-central1-a' } as const;

/**
 * What a simulated cloud's metadata service tells a host named `hostname` its host name is, where that
 * differs from the host's own default: GCE answers the instance's zonal internal DNS name
 * (`<name>.<zone>.c.<project>.internal`), which the GCP hostname script turns into the node name.
 */
export function simCloudMetadataHostname(platform: string, hostname: string): string | undefined {
  const rule = Object.hasOwn(METADATA_HOSTNAMES, platform) ? METADATA_HOSTNAMES[platform] : undefined;
  return rule?.(hostname.toLowerCase());
}

const METADATA_HOSTNAMES: Readonly<Record<string, (name: string) => string>> = {
  GCP: (name) => `${name}.${GCP_SIM.zone}.c.${GCP_SIM.project}.internal`,
};

async function gcpCloud(): Promise<SimCloud> {
  const gce = await SimGce.start({ project: GCP_SIM.project, region: GCP_SIM.region });
  return {
    platform: 'GCP',
    url: gce.url,
    caPem: gce.caPem,
    faults: gce.faults,
    refused: gce.refused,
    mint: gceMint(gce),
    platformStatus: () => gce.platformStatus(),
    credentialsSecret: () => gce.credentialsSecret(),
    addHost: (address, hostname, _metadataHostname, network) =>
      gce.addInstance({
        privateIp: address,
        name: hostname.toLowerCase(),
        zone: GCP_SIM.zone,
        ...(network === 'peer' ? { network: 'peer-network' } : {}),
      }).id,
    addControlPlane: (infra) =>
      CONTROL_PLANE_IPS.forEach((privateIp, n) =>
        gce.addInstance({
          privateIp,
          name: `${infra}-master-${n}`,
          zone: GCP_SIM.zone,
          tags: { [`kubernetes-io-cluster-${infra}`]: 'owned' },
        }),
      ),
    instancesAt: (address) => atAddress(gce.state.instances.values(), address, (i) => i.id),
    cloudFileFields: (files) => ({
      zone: GCP_SIM.zone,
      credentials: {
        project: gce.state.project,
        serviceAccountFile: files.write(
          'service-account.json',
          JSON.stringify(gce.serviceAccountKey, null, 2),
        ),
        accessToken: gce.accessToken(),
      },
    }),
    machines: new GceMachineCloud(gce, GCP_SIM.zone),
    instance: (providerId) => {
      const [, zone = '', name = ''] = /^gce:\/\/[^/]+\/([^/]+)\/([^/]+)$/.exec(providerId) ?? [];
      return view(gce.state.find(zone, name));
    },
    close: () => gce.close(),
  };
}

async function azureCloud(): Promise<SimCloud> {
  const arm = await SimArm.start({ resourceGroup: 'wmco-sim-rg', location: 'eastus' });
  return {
    platform: 'Azure',
    url: arm.url,
    caPem: arm.caPem,
    faults: arm.faults,
    refused: arm.refused,
    mint: armMint(arm),
    platformStatus: () => arm.platformStatus(),
    credentialsSecret: () => arm.credentialsSecret(),
    // The cloud's instance ID on Azure is the VM's resource ID.
    addHost: (address, hostname, _metadataHostname, network) =>
      arm.state.vmId(
        arm.addInstance({
          privateIp: address,
          name: hostname,
          ...(network === 'peer' ? { network: 'peer-vnet' } : {}),
        }),
      ),
    addControlPlane: (infra) =>
      CONTROL_PLANE_IPS.forEach((privateIp, n) =>
        arm.addInstance({
          privateIp,
          name: `${infra}-master-${n}`,
          tags: { [`kubernetes.io_cluster.${infra}`]: 'owned' },
        }),
      ),
    instancesAt: (address) => atAddress(arm.state.vms.values(), address, (i) => arm.state.vmId(i)),
    cloudFileFields: () => ({
      region: arm.state.location,
      credentials: {
        tenantId: arm.tenant.tenantId,
        clientId: arm.tenant.clientId,
        clientSecret: arm.tenant.clientSecret,
        subscriptionId: arm.state.subscriptionId,
        resourceGroup: arm.state.resourceGroup,
        authorityHost: arm.url,
      },
    }),
    machines: new ArmMachineCloud(arm),
    instance: (providerId) => view(arm.state.vms.get((providerId.split('/').pop() ?? '').toLowerCase())),
    close: () => arm.close(),
  };
}

/** The simulated clouds by Infrastructure platform type. */
const SIM_CLOUDS: Readonly<Record<string, () => Promise<SimCloud>>> = {
  AWS: awsCloud,
  Azure: azureCloud,
  GCP: gcpCloud,
};

/** Starts the simulated cloud of a platform, or resolves undefined when the platform has none. */
export async function startSimCloud(platform: string): Promise<SimCloud | undefined> {
  const start = Object.hasOwn(SIM_CLOUDS, platform) ? SIM_CLOUDS[platform] : undefined;
  return start ? start() : undefined;
}

export function simCloudPlatforms(): readonly string[] {
  return Object.keys(SIM_CLOUDS);
}
