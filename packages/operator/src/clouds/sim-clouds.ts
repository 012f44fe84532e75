import { SimArm, SimEc2, SimGce } from '@wmco/sim';

/** One running simulated cloud, whatever the platform, as `wmco sim` and the world use it. */
export interface SimCloud {
  readonly platform: string;
  readonly url: string;
  readonly caPem: string;
  /** `infrastructure/cluster .status.platformStatus.<platform>` pointing the SDK at the simulated endpoint. */
  platformStatus(): Record<string, unknown>;
  /** The credentials Secret as OpenShift's installer writes it. */
  credentialsSecret(): { namespace: string; name: string; data: Record<string, string> };
  /**
   * Makes a simulated Windows host an instance of this cloud; returns the cloud's instance id.
   * `metadataHostname` is what the host's simulated metadata service answers (EC2 `local-hostname`), so
   * the cloud's private DNS name and the host's own view agree as on EC2.
   */
  addHost(address: string, hostname: string, metadataHostname?: string): string;
  /** The `region`/`zone` and `credentials` members of F.cloud.json (files it needs go into `files`). */
  cloudFileFields(files: { write(name: string, content: string): string }): Record<string, unknown>;
  close(): Promise<void>;
}

async function awsCloud(): Promise<SimCloud> {
  const ec2 = await SimEc2.start({ region: 'us-east-2' });
  return {
    platform: 'AWS',
    url: ec2.url,
    caPem: ec2.caPem,
    platformStatus: () => ec2.platformStatus(),
    credentialsSecret: () => ec2.credentialsSecret(),
    addHost: (address, hostname, metadataHostname) =>
      ec2.addInstance({
        privateIp: address,
        name: hostname,
        tags: { Name: hostname },
        ...(metadataHostname ? { privateDnsName: metadataHostname } : {}),
      }).id,
    cloudFileFields: () => ({
      region: ec2.region,
      credentials: {
        accessKeyId: ec2.credentials.accessKeyId,
        secretAccessKey: ec2.credentials.secretAccessKey,
      },
    }),
    close: () => ec2.close(),
  };
}

async function gcpCloud(): Promise<SimCloud> {
  const gce = await SimGce.start({ project: 'wmco-sim-project', region: 'us-central1' });
  return {
    platform: 'GCP',
    url: gce.url,
    caPem: gce.caPem,
    platformStatus: () => gce.platformStatus(),
    credentialsSecret: () => gce.credentialsSecret(),
    addHost: (address, hostname) =>
      gce.addInstance({ privateIp: address, name: hostname, zone: 'us-central1-a' }).id,
    cloudFileFields: (files) => ({
      zone: 'us-central1-a',
      credentials: {
        project: gce.state.project,
        serviceAccountFile: files.write(
          'service-account.json',
          JSON.stringify(gce.serviceAccountKey, null, 2),
        ),
        accessToken: gce.accessToken(),
      },
    }),
    close: () => gce.close(),
  };
}

async function azureCloud(): Promise<SimCloud> {
  const arm = await SimArm.start({ resourceGroup: 'wmco-sim-rg', location: 'eastus' });
  return {
    platform: 'Azure',
    url: arm.url,
    caPem: arm.caPem,
    platformStatus: () => arm.platformStatus(),
    credentialsSecret: () => arm.credentialsSecret(),
    // The cloud's instance ID on Azure is the VM's resource ID.
    addHost: (address, hostname) => arm.state.vmId(arm.addInstance({ privateIp: address, name: hostname })),
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
