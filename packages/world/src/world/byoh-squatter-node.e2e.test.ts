import test from 'ava';
import { decodeNodeRecord, NODE_RECORD_LABEL } from '@wmco/core/internal';
import { nodeAttacker } from './node-attacker.js';
import type { SimWorld } from './sim-world.js';
import { apis, eventsAbout, NS, phaseIs, testWorld, until } from './world-fixture.js';

// A squatter: whoever holds a kubelet identity creates its Node before the host is first listed, annotated
// as that host's instance (issue 27). Host 0 is the honest host (listed); host 1 is never listed.
const HOSTS = [{ hostname: 'WIN-A' }, { hostname: 'WIN-V' }];
const OWNER = 'windowsmachineconfig.openshift.io/instance-address';
const WINDOWS_BYOH = { 'kubernetes.io/os': 'windows', 'windowsmachineconfig.openshift.io/byoh': 'true' };

function host(world: SimWorld, i: number): NonNullable<SimWorld['hosts']['hosts'][number]> {
  const h = world.hosts.hosts[i];
  if (!h) throw new Error(`no host ${i}`);
  return h;
}

async function recordedNodes(world: SimWorld): Promise<string[]> {
  const l = await apis(world).core.listNamespacedConfigMap({
    namespace: NS,
    labelSelector: `${NODE_RECORD_LABEL}=true`,
  });
  return l.items.map((cm) => decodeNodeRecord(cm)?.nodeName ?? '?').sort();
}

async function warning(world: SimWorld, reason: string, node: string): Promise<string> {
  return until(`${reason} about ${node}`, async () => {
    const e = (await eventsAbout(world)).find(
      (x) => x.type === 'Warning' && x.reason === reason && x.message.includes(`Node ${node} `),
    );
    return e?.message;
  });
}

async function listAndStart(world: SimWorld): Promise<void> {
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
}

test.serial(
  'a Node created before the first join that claims the entry under another name is reported, never adopted or connected to, and the host joins under its own name',
  async (t) => {
    const { world } = await testWorld(HOSTS, { driftRepairIntervalMs: 0 });
    t.teardown(() => world.stop());
    const [a, v] = [host(world, 0), host(world, 1)];
    const squatter = await nodeAttacker(world, 'win-s');
    await squatter.squat({
      labels: WINDOWS_BYOH,
      annotations: { [OWNER]: a.address },
      internalIp: v.address,
    });
    // Another that does not call itself Windows: the operator's informer of Windows nodes does not see it,
    // the join's look for claimants still does.
    await (await nodeAttacker(world, 'win-u')).squat({ labels: {}, annotations: { [OWNER]: a.address } });

    await listAndStart(world);
    const ready = await until('WIN-A Ready', phaseIs(world, a.address, 'Ready'), 90_000);
    t.is(ready.node, 'win-a', 'the honest host joined under its own name');
    t.deepEqual(ready.untrustedNodes, ['win-s', 'win-u'], 'the status names the squatters');
    t.regex(await warning(world, 'NodeClaimNotTrusted', 'win-s'), /no record of joining it; not adopted/);
    t.regex(await warning(world, 'NodeClaimNotTrusted', 'win-u'), /no record of joining it; not adopted/);
    t.deepEqual(await recordedNodes(world), ['win-a']);
    const s = await apis(world).core.readNode({ name: 'win-s' });
    t.is(s.metadata?.annotations?.[OWNER], a.address, 'its own annotation is left as it wrote it');
    t.is(s.metadata?.annotations?.['windowsmachineconfig.openshift.io/pub-key-hash'], undefined);
    t.not(s.spec?.unschedulable, true, 'not cordoned: nothing touched it');
    t.is(v.sim.stats.connectionsAccepted, 0, 'no SSH connection to the address the squatter reports');
  },
);

test.serial(
  'a Node created before the first join under the host’s own name is refused with the reason; once an admin deletes it, the host joins',
  async (t) => {
    const { world } = await testWorld(HOSTS, { driftRepairIntervalMs: 0 });
    t.teardown(() => world.stop());
    const a = host(world, 0);
    const squatter = await nodeAttacker(world, 'win-a');
    await squatter.squat({
      labels: WINDOWS_BYOH,
      annotations: { [OWNER]: a.address },
      internalIp: a.address,
    });

    await listAndStart(world);
    const failed = await until('WIN-A refused', phaseIs(world, a.address, 'Failed'), 90_000);
    t.regex(
      failed.lastError ?? '',
      /node name win-a, taken by an existing Node the operator has no record of joining \(its own annotation names instance/,
    );
    const event = await until('the refusal event', async () =>
      (await eventsAbout(world)).find((e) => e.reason === 'InstanceSetupFailure' && e.type === 'Warning'),
    );
    t.regex(event.message, /delete that Node/);
    t.false(
      a.sim.model.scm.all().some((svc) => svc.name === 'kubelet'),
      'the refusal came before any kubelet was installed',
    );
    t.deepEqual(await recordedNodes(world), [], 'no record names the squatter');
    const s = await apis(world).core.readNode({ name: 'win-a' });
    t.is(s.metadata?.annotations?.['windowsmachineconfig.openshift.io/pub-key-hash'], undefined);

    await apis(world).core.deleteNode({ name: 'win-a' });
    const ready = await until('WIN-A Ready', phaseIs(world, a.address, 'Ready'), 90_000);
    t.is(ready.node, 'win-a');
    t.deepEqual(await recordedNodes(world), ['win-a']);
  },
);

test.serial(
  'a squatter dressed as a Go-WMCO node (version annotation) under the host’s name is not taken over: the host runs no kubelet',
  async (t) => {
    const { world } = await testWorld(HOSTS, { driftRepairIntervalMs: 0 });
    t.teardown(() => world.stop());
    const a = host(world, 0);
    const squatter = await nodeAttacker(world, 'win-a');
    const version = 'windowsmachineconfig.openshift.io/version';
    await squatter.squat({
      labels: WINDOWS_BYOH,
      annotations: { [version]: '10.19.0-8a2b3c4' },
      internalIp: a.address,
    });

    await listAndStart(world);
    const failed = await until('WIN-A refused', phaseIs(world, a.address, 'Failed'), 90_000);
    t.regex(
      failed.lastError ?? '',
      /not taken over from instance .*: the host at the entry’s address runs no kubelet/,
    );
    t.regex(await warning(world, 'NodeTakeoverRefused', 'win-a'), /nothing was changed/);
    t.deepEqual(await recordedNodes(world), [], 'no record names the squatter');
    const s = await apis(world).core.readNode({ name: 'win-a' });
    t.is(s.metadata?.annotations?.[OWNER], undefined, 'not annotated as the entry’s');
    t.is(s.metadata?.annotations?.[version], '10.19.0-8a2b3c4');
  },
);
