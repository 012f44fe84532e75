// A Node created under a Machine's future name (vSphere and Nutanix name nodes after their Machines), with
// the Machine's address, before the Machine's host ever ran a kubelet: refused and left alone (issue 27).
import test from 'ava';
import {
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Node,
} from '@kubernetes/client-node';
import type { SimWorld } from './sim-world.js';
import { apis, eventsAbout, phaseIs, testWorld, until } from './world-fixture.js';

const IGNORE = 'windowsmachineconfig.openshift.io/ignore';
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

async function machineEvents(world: SimWorld): Promise<{ reason: string; message: string }[]> {
  const list = await apis(world).core.listNamespacedEvent({ namespace: 'openshift-machine-api' });
  return list.items.map((e) => ({ reason: e.reason ?? '', message: e.message ?? '' }));
}

function footprint(n: V1Node): unknown {
  const { annotations = {}, labels = {} } = n.metadata ?? {};
  return { labels, annotations, taints: n.spec?.taints ?? [], unschedulable: n.spec?.unschedulable };
}

test.serial(
  "vSphere: a Node squatting a Machine's future name is refused, named, and left alone",
  async (t) => {
    t.timeout(150_000);
    // Retried rather than deleted after two failures, so the Machine (and the Node machine-api deletes
    // with it) stays while the test looks.
    const { world } = await testWorld([], {
      platform: 'VSphere',
      machineRetry: { budget: 1000, retryMs: 500 },
    });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.startOperator();
    const api = world.machineApi();
    // Ignored at first, so the squat is in place before the operator looks at the Machine.
    await api.createMachineSet({
      name: 'win',
      replicas: 1,
      platform: 'VSphere',
      labels: { [IGNORE]: 'true' },
    });
    const m = await until('a provisioned Machine with an address', async () => {
      const [x] = await api.machines('win');
      const ip = x?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
      return x && ip && x.status?.phase !== 'Provisioning' ? { name: x.metadata.name, ip } : undefined;
    });
    const { core } = apis(world);
    await core.createNode({
      body: {
        metadata: { name: m.name, labels: { 'kubernetes.io/os': 'windows', squatter: 'yes' } },
        status: { addresses: [{ type: 'InternalIP', address: m.ip }] },
      },
    });
    const before = footprint(await core.readNode({ name: m.name }));
    const kc = new KubeConfig();
    kc.loadFromFile(world.adminKubeconfig);
    await kc.makeApiClient(CustomObjectsApi).patchNamespacedCustomObject(
      {
        group: 'machine.openshift.io',
        version: 'v1beta1',
        namespace: 'openshift-machine-api',
        plural: 'machines',
        name: m.name,
        body: { metadata: { labels: { [IGNORE]: null } } },
      },
      mergePatch,
    );
    const failed = await until('the join refused', phaseIs(world, `machine.${m.name}`, 'Failed'), 90_000);
    t.regex(
      failed.lastError ?? '',
      new RegExp(`Node ${m.name} already exists, but the host of Machine .* has never run a kubelet`),
    );
    const events = [...(await eventsAbout(world)), ...(await machineEvents(world))];
    t.true(
      events.some((e) => e.message.includes(`Node ${m.name} already exists`)),
      'an event names the squatting Node',
    );
    t.deepEqual(
      footprint(await core.readNode({ name: m.name })),
      before,
      'the squatting Node was not touched',
    );
  },
);
