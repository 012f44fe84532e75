// The BYOH join on every platform (issue 12 item 2): two hosts each, join, Ready, the platform's own
// specifics, the cloud's ownership tags read back through the SDK, and one host removed again. One world
// per platform, run one after another, keeps CI time small.
import test from 'ava';
import { KubeConfig, type V1Node } from '@kubernetes/client-node';
import type { WmcoProvider } from '@wmco/core/provider';
import type { SimulatedWindowsHost } from '@wmco/sim';
import { cloudCapabilities } from '../clouds/cloud-capabilities.test-helper.js';
import { kubeCloudContext } from '@wmco/operator';
import { loadBuiltinProviders } from '@wmco/operator';
import type { SimWorld } from './sim-world.js';
import { eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';
import type { SimHostSpec } from './world-hosts.js';

interface PlatformCase {
  readonly platform: string;
  /** How the two hosts are described (username, DNS suffix). */
  readonly host?: Partial<SimHostSpec>;
  /** The node names the kubelets must register, for hosts WIN-P1 and WIN-P2. */
  readonly nodeNames: readonly [string, string];
  /** Upstream's kubelet flags of the platform (reference §2): a hostname override, the ECR plugin. */
  readonly kubelet: { readonly hostnameOverride: boolean; readonly credentialProvider: boolean };
  /** What else the platform puts on a host. */
  readonly specifics: (
    t: { is: (a: unknown, b: unknown, m?: string) => void },
    host: SimulatedWindowsHost,
  ) => void;
}

const running = (h: SimulatedWindowsHost): string[] =>
  h.model.scm
    .all()
    .filter((s) => s.state === 'running')
    .map((s) => s.name)
    .sort();

const CASES: readonly PlatformCase[] = [
  {
    platform: 'None',
    nodeNames: ['win-p1', 'win-p2'],
    kubelet: { hostnameOverride: false, credentialProvider: false },
    specifics: () => undefined,
  },
  {
    platform: 'AWS',
    // The kubelet's name is EC2's private DNS name, read from the instance metadata (IMDS).
    nodeNames: ['win-p1.internal', 'win-p2.internal'],
    kubelet: { hostnameOverride: true, credentialProvider: true },
    specifics: (t, h) =>
      t.is(
        h.model.routes.some((r) => r.destinationPrefix === '169.254.169.254/32'),
        true,
        'the EC2 metadata route',
      ),
  },
  {
    platform: 'Azure',
    host: { username: 'capi' },
    nodeNames: ['win-p1', 'win-p2'],
    // Its workers have an ACR credential provider; upstream gives Windows nodes none.
    kubelet: { hostnameOverride: false, credentialProvider: false },
    specifics: (t, h) => t.is(running(h).includes('cloud-node-manager'), true, 'cloud-node-manager runs'),
  },
  {
    platform: 'GCP',
    // The GCP hostname script: the metadata hostname (the zonal DNS name), at most 63 characters.
    nodeNames: [
      'win-p1.us-central1-a.c.wmco-sim-project.internal',
      'win-p2.us-central1-a.c.wmco-sim-project.internal',
    ],
    kubelet: { hostnameOverride: true, credentialProvider: false },
    specifics: (t, h) =>
      t.is(h.model.files.isFile('C:\\Temp\\gcp-get-hostname.ps1'), true, 'the GCP hostname script'),
  },
  {
    platform: 'VSphere',
    // The FQDN from ipconfig /all, lower-cased as the kubelet registers it (the name case once hung here).
    host: { dnsSuffix: 'Lab.Example.COM' },
    nodeNames: ['win-p1.lab.example.com', 'win-p2.lab.example.com'],
    kubelet: { hostnameOverride: true, credentialProvider: false },
    specifics: () => undefined,
  },
  {
    platform: 'Nutanix',
    nodeNames: ['win-p1', 'win-p2'],
    kubelet: { hostnameOverride: false, credentialProvider: false },
    specifics: () => undefined,
  },
];

const CREDENTIAL_CONFIG = 'C:\\k\\credential-provider-config.yaml';
const has = (commandLine: string, flag: string): boolean =>
  commandLine.split(/\s+/).some((a) => a === flag || a.startsWith(`${flag}=`));

/**
 * The kubelet's arguments as upstream builds them for the platform, and the files they name, read from
 * the host's SCM and file model: the ECR plugin's flags, its rewritten config and its binary on AWS only.
 */
function checkKubeletFlags(
  t: { is: (a: unknown, b: unknown, m?: string) => void; regex: (s: string, r: RegExp) => void },
  c: PlatformCase,
  host: SimulatedWindowsHost,
  kubelet: string,
): void {
  const aws = c.kubelet.credentialProvider;
  t.is(has(kubelet, '--hostname-override'), c.kubelet.hostnameOverride, `${c.platform}: ${kubelet}`);
  t.is(kubelet.split(/\s+/).includes('--image-credential-provider-bin-dir=C:\\k'), aws, kubelet);
  t.is(kubelet.includes(`--image-credential-provider-config=${CREDENTIAL_CONFIG}`), aws, kubelet);
  t.is(has(kubelet, '--cloud-config'), false, 'the clouds run an external provider without a cloud config');
  t.regex(kubelet, /--node-ip=\d+\.\d+\.\d+\.\d+/);
  t.is(host.model.files.isFile(CREDENTIAL_CONFIG), aws, 'the credential provider config');
  t.is(host.model.files.isFile('C:\\k\\ecr-credential-provider.exe'), aws, 'the ECR plugin binary');
  if (!aws) return;
  const config = host.model.files.read(CREDENTIAL_CONFIG)?.toString() ?? '';
  t.regex(config, /- name: ecr-credential-provider\.exe\n/);
  t.regex(config, /"\*\.dkr\.ecr\.\*\.amazonaws\.com"/);
}

/** The ownership-tag view of each host's instance, read back through the platform's SDK client. */
async function cloudTags(
  world: SimWorld,
  provider: WmcoProvider,
): Promise<Record<string, Readonly<Record<string, string>>>> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const { identity } = cloudCapabilities(provider, await kubeCloudContext(kc));
  const out: Record<string, Readonly<Record<string, string>>> = {};
  for (const h of world.hosts.hosts) {
    const instance = await identity.identify(h.address);
    if (!instance) throw new Error(`no cloud instance for ${h.address}`);
    out[h.address] = instance.tags;
  }
  return out;
}

const nodeNamed =
  (world: SimWorld, name: string): (() => Promise<V1Node | undefined>) =>
  async () =>
    (await windowsNodes(world)).find((n) => n.metadata?.name === name);

for (const c of CASES) {
  test.serial(
    `${c.platform}: two BYOH hosts join, are tagged where the cloud has tags, one leaves`,
    async (t) => {
      const hosts = ['WIN-P1', 'WIN-P2'].map((hostname) => ({ hostname, ...c.host }));
      // The clouds' Linux workers run with an external cloud provider; the Windows kubelet must follow them.
      const external = ['AWS', 'Azure', 'GCP'].includes(c.platform);
      const { world } = await testWorld(hosts, {
        platform: c.platform,
        cloud: true,
        cloudTagging: 'apply',
        ...(external ? { cloudProvider: 'external' } : {}),
      });
      t.teardown(() => world.stop());
      const provider = (await loadBuiltinProviders()).find((p) => p.platforms.includes(c.platform));
      if (!provider) return t.fail(`no provider for ${c.platform}`);
      const before = world.cloud ? await cloudTags(world, provider) : {};
      await world.createPrivateKeySecret();
      await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
      await world.startOperator();
      for (const h of world.hosts.hosts)
        await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 90_000);

      const nodes = await windowsNodes(world);
      t.deepEqual(nodes.map((n) => n.metadata?.name).sort(), [...c.nodeNames].sort());
      for (const h of world.hosts.hosts) {
        c.specifics(t, h.sim);
        const kubelet = h.sim.model.scm.all().find((svc) => svc.name === 'kubelet')?.commandLine ?? '';
        t.is(/--cloud-provider=external(\s|$)/.test(kubelet), external, kubelet);
        checkKubeletFlags(t, c, h.sim, kubelet);
      }

      const [first, second] = world.hosts.hosts;
      if (!first || !second) return t.fail('two hosts');
      const firstNode = (await nodeNamed(world, c.nodeNames[0])())!;
      if (world.cloud) {
        const owned = `${world.cluster.infrastructureName}`;
        const joined = await cloudTags(world, provider);
        for (const h of world.hosts.hosts) {
          const added = Object.keys(joined[h.address] ?? {}).filter((k) => !(k in (before[h.address] ?? {})));
          t.is(added.length, 1, `${c.platform}: one ownership tag on ${h.address}`);
          t.true(added[0]?.includes(owned), added[0]);
          t.is(joined[h.address]?.[added[0] ?? ''], 'shared', 'a BYOH instance is tagged shared by default');
        }
        const a = firstNode.metadata?.annotations ?? {};
        t.truthy(a['windowsmachineconfig.openshift.io/cloud-instance-id']);
        t.regex(a['windowsmachineconfig.openshift.io/cloud-applied-tags'] ?? '', /shared/);
      } else {
        t.is(
          firstNode.metadata?.annotations?.['windowsmachineconfig.openshift.io/cloud-instance-id'],
          undefined,
        );
      }

      // Remove the first host: deconfigured, its Node deleted, and only the operator's tag taken back.
      await world.setInstances(Object.fromEntries([world.hosts.entry(1)]));
      await until(`${c.nodeNames[0]} removed`, async () =>
        (await nodeNamed(world, c.nodeNames[0])()) ? undefined : true,
      );
      t.deepEqual(running(first.sim), [], 'no managed service left');
      t.false(first.sim.model.files.isFile(CREDENTIAL_CONFIG), 'the credential provider config is gone');
      t.truthy(await nodeNamed(world, c.nodeNames[1])(), 'the other node stays');
      if (world.cloud) {
        const after = await cloudTags(world, provider);
        t.deepEqual(
          after[first.address],
          before[first.address],
          'the removed instance has its own tags only',
        );
        t.not(after[second.address], before[second.address]);
        t.deepEqual(
          Object.keys(after[second.address] ?? {}).length,
          Object.keys(before[second.address] ?? {}).length + 1,
          'the remaining instance keeps its ownership tag',
        );
      }
      const events = await eventsAbout(world);
      t.deepEqual(
        events.filter((e) => e.type === 'Warning').map((e) => `${e.reason}: ${e.message}`),
        [],
        'no warning on the way',
      );
    },
  );
}
