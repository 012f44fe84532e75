// deploy/09-credentialsrequests.yaml lists exactly the calls the operator makes: with credentials minted
// from it, every cloud capability (identify, tag, take the tag back, read the firewall) goes through the
// real SDK with nothing refused; and with any one listed permission left out, the simulated cloud refuses
// that very permission. So the list is enough, and nothing in it is unused.
import test from 'ava';
import {
  DEFAULT_OPERATOR_NAMESPACE as NS,
  MINTED_CREDENTIALS_SECRET,
  type WmcoProvider,
} from '@wmco/core/provider';
import { awsProvider } from '@wmco/provider-aws';
import { azureProvider } from '@wmco/provider-azure';
import { gcpProvider } from '@wmco/provider-gcp';
import {
  armMint,
  ec2Mint,
  gceMint,
  SimArm,
  SimEc2,
  SimGce,
  type CloudMint,
  type CloudRefusal,
} from '@wmco/sim';
import { cloudCapabilities } from './cloud-capabilities.test-helper.js';
import { deployCredentialsRequests } from './sim-credential-operator.js';
import { staticCloudContext } from '@wmco/operator';

const ADDRESS = '127.0.0.7';
/** The code each provider reports for the cloud's refusal. */
const CODES: Readonly<Record<string, string>> = {
  AWS: 'UnauthorizedOperation',
  Azure: 'AuthorizationFailed',
  GCP: 'PERMISSION_DENIED',
};

interface CloudUnderTest {
  readonly provider: WmcoProvider;
  readonly mint: CloudMint;
  readonly platformStatus: Record<string, unknown>;
  readonly caPem: string;
  readonly refused: readonly CloudRefusal[];
  close(): Promise<void>;
}

const INFRA = 'sim-cov-a1b2c';

const CLOUDS: Readonly<Record<string, () => Promise<CloudUnderTest>>> = {
  AWS: async () => {
    const ec2 = await SimEc2.start();
    ec2.addSecurityGroup({ groupId: 'sg-win', groupName: 'windows', tags: {}, ingress: [] });
    // The control plane, tagged as the installer tags it: the providers read the cluster's VPC from it.
    ec2.addInstance({
      privateIp: '10.0.0.10',
      name: 'master-0',
      tags: { [`kubernetes.io/cluster/${INFRA}`]: 'owned' },
    });
    ec2.addInstance({ privateIp: ADDRESS, name: 'win-a', groups: ['sg-win'] });
    return { provider: awsProvider, mint: ec2Mint(ec2), ...parts(ec2), refused: ec2.iam.refused };
  },
  Azure: async () => {
    const arm = await SimArm.start();
    arm.addInstance({
      privateIp: '10.0.0.10',
      name: `${INFRA}-master-0`,
      tags: { [`kubernetes.io_cluster.${INFRA}`]: 'owned' },
    });
    arm.addInstance({ privateIp: ADDRESS, name: 'win-a' });
    return { provider: azureProvider, mint: armMint(arm), ...parts(arm), refused: arm.refused };
  },
  GCP: async () => {
    const gce = await SimGce.start();
    gce.addFirewall({
      name: 'vxlan',
      sourceRanges: ['10.0.0.0/16'],
      allowed: [{ IPProtocol: 'udp', ports: ['4789'] }],
    });
    gce.addInstance({
      privateIp: '10.0.0.10',
      name: `${INFRA}-master-0`,
      zone: 'us-central1-a',
      tags: { [`kubernetes-io-cluster-${INFRA}`]: 'owned' },
    });
    gce.addInstance({ privateIp: ADDRESS, name: 'win-a', zone: 'us-central1-a' });
    return { provider: gcpProvider, mint: gceMint(gce), ...parts(gce), refused: gce.refused };
  },
};

function parts(c: SimEc2 | SimArm | SimGce): Pick<CloudUnderTest, 'platformStatus' | 'caPem' | 'close'> {
  return { platformStatus: c.platformStatus(), caPem: c.caPem, close: () => c.close() };
}

/** The providerSpec of deploy/'s CredentialsRequest for a platform. */
async function providerSpec(platform: string): Promise<Record<string, unknown>> {
  const name = `windows-machine-config-operator-${platform.toLowerCase()}`;
  const cr = (await deployCredentialsRequests(NS)).find((o) => o.metadata?.name === name);
  return (cr as unknown as { spec: { providerSpec: Record<string, unknown> } }).spec.providerSpec;
}

/** Every permission a providerSpec lists, and the same spec without one of them. */
function listed(spec: Record<string, unknown>): string[] {
  const entries = spec['statementEntries'] as { action: string[] }[] | undefined;
  return entries ? entries.flatMap((e) => e.action) : (spec['permissions'] as string[]);
}
function without(spec: Record<string, unknown>, p: string): Record<string, unknown> {
  const entries = spec['statementEntries'] as { action: string[] }[] | undefined;
  if (entries)
    return {
      ...spec,
      statementEntries: entries.map((e) => ({ ...e, action: e.action.filter((a) => a !== p) })),
    };
  return { ...spec, permissions: (spec['permissions'] as string[]).filter((x) => x !== p) };
}

/** Runs every cloud capability as a join, a removal and a preflight would, with credentials minted for `spec`. */
async function exercise(cloud: CloudUnderTest, spec: Record<string, unknown>): Promise<void> {
  const data = cloud.mint.mint('windows-machine-config-operator', spec as Parameters<CloudMint['mint']>[1]);
  const ctx = staticCloudContext({
    infrastructureName: INFRA,
    platformStatus: cloud.platformStatus,
    caBundle: cloud.caPem,
    secrets: [{ namespace: NS, name: MINTED_CREDENTIALS_SECRET, data }],
  });
  const caps = cloudCapabilities(cloud.provider, ctx);
  const found = await caps.identity.identify(ADDRESS);
  if (!found) throw new Error('no instance found');
  const applied = await caps.tagging.ensureTag(found, 'apply');
  await caps.tagging.removeTags(found, [applied.tag]);
  if (caps.firewall) await caps.firewall.inspect(found, 4789);
}

for (const platform of Object.keys(CLOUDS)) {
  test(`${platform}: deploy/'s CredentialsRequest allows every call, and each permission it lists is used`, async (t) => {
    const spec = await providerSpec(platform);
    const start = CLOUDS[platform];
    if (!start) return t.fail();
    const cloud = await start();
    t.teardown(() => cloud.close());
    await exercise(cloud, spec);
    t.deepEqual(cloud.refused, [], 'nothing refused with the full list');
    for (const p of listed(spec)) {
      const before = cloud.refused.length;
      const error = await exercise(cloud, without(spec, p)).then(
        () => undefined,
        (err: unknown) => err,
      );
      // The SDK reads the refusal as the cloud's authorization failure (CloudApiError kind unauthorized).
      t.like(error, { kind: 'unauthorized', cloudCode: CODES[platform] }, `without ${p}`);
      t.deepEqual(
        cloud.refused.slice(before).map((r) => r.permission),
        [p],
        `without ${p}, the cloud refuses exactly ${p}`,
      );
    }
  });
}
