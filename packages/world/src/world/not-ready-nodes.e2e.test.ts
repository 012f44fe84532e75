// A configured node that is not Ready gets a drift check, not a join (byoh-plan.ts, machine-plan.ts): a
// kubelet that is only late is left alone, a stopped one is started again, and the node is never cordoned
// or configured anew. BYOH and Machines decide alike.
import test, { type ExecutionContext } from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import type { OperatorMetrics } from '@wmco/operator';
import type { SimulatedWindowsHost } from '@wmco/sim';
import { logOnFailure } from './log-on-failure.test-helper.js';
import { isReady, settled } from './machine-wait.js';
import type { SimWorld } from './sim-world.js';
import { watchUnavailability } from './unavailability-watch.js';
import { eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

/** Every Node that was ever cordoned while the watch ran (every change, however short). */
class CordonLog {
  readonly cordoned = new Set<string>();
  observe(_type: string, node: V1Node): void {
    if (node.spec?.unschedulable === true) this.cordoned.add(node.metadata?.name ?? '');
  }
}

async function nodeNamed(world: SimWorld, name: string): Promise<V1Node | undefined> {
  return (await windowsNodes(world)).find((n) => n.metadata?.name === name);
}

function readiness(world: SimWorld, name: string, ready: boolean): () => Promise<V1Node | undefined> {
  return async () => {
    const n = await nodeNamed(world, name);
    return n !== undefined && isReady(n) === ready ? n : undefined;
  };
}

async function cleanChecks(m: OperatorMetrics): Promise<number> {
  const values = (await m.registry.getSingleMetric('wmco_drift_checks_total')?.get())?.values ?? [];
  return values.filter((v) => v.labels['result'] === 'clean').reduce((n, v) => n + v.value, 0);
}

async function countOf(world: SimWorld, reason: string): Promise<number> {
  return (await eventsAbout(world)).filter((e) => e.reason === reason).length;
}

/** The kubelet stops (someone ran `Stop-Service kubelet`); the drift check starts it again. */
async function kubeletStoppedAndRepaired(world: SimWorld, name: string, host: SimulatedWindowsHost) {
  await host.model.scm.stop('kubelet');
  // The repair is what is waited for: the Node is not Ready for a moment only (the check follows at once),
  // which a poll of the Node, or a watch being opened again just then, can miss.
  const repaired = await until(
    `${name}: DriftRepaired`,
    async () =>
      (await eventsAbout(world)).find(
        (e) => e.reason === 'DriftRepaired' && e.message.includes(`node ${name} `),
      ),
    150_000,
  );
  await until(`${name} Ready again`, readiness(world, name, true), 90_000);
  return repaired;
}

test.serial(
  'BYOH: a late kubelet is left alone and a stopped one started again; never cordoned or joined again',
  async (t) => {
    t.timeout(300_000);
    // No periodic checks: the only check is the one the Ready condition's change asks for.
    const { world, logs } = await testWorld([{ hostname: 'WIN-A' }], { driftRepairIntervalMs: 600_000 });
    t.teardown(() => world.stop());
    await logOnFailure(t, logs, () => byohScenario(t, world));
  },
);

async function byohScenario(t: ExecutionContext, world: SimWorld): Promise<void> {
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  const operator = await world.startOperator();
  const host = world.hosts.hosts[0]!;
  await until('win-a Ready', phaseIs(world, host.address, 'Ready'), 90_000);
  const log = new CordonLog();
  const stopWatch = await watchUnavailability(world, log);
  t.teardown(stopWatch);
  t.is(await countOf(world, 'InstanceSetup'), 1);

  // A late kubelet: its heartbeats do not reach the API server (the node lifecycle controller marks the
  // Node Unknown after its grace period), while every service on the host runs as configured.
  const scmBefore = host.sim.model.scm.events.length;
  const cleanBefore = await cleanChecks(operator.metrics);
  const heartbeat = (method: string, path: string): boolean =>
    (method === 'PUT' && path.endsWith('/namespaces/kube-node-lease/leases/win-a')) ||
    (method === 'PATCH' && path === '/api/v1/nodes/win-a/status');
  world.cluster.server.faults.failNext(503, { times: 1_000_000, match: heartbeat });
  await until('win-a not Ready', readiness(world, 'win-a', false), 90_000);
  await until(
    'a drift check of the node that is not Ready',
    async () => ((await cleanChecks(operator.metrics)) > cleanBefore ? true : undefined),
    120_000,
  );
  world.cluster.server.faults.clear();
  await until('win-a Ready again', readiness(world, 'win-a', true), 90_000);
  t.deepEqual(
    host.sim.model.scm.events.slice(scmBefore).map((e) => `${e.action} ${e.name}`),
    [],
    'nothing on the host was stopped or started',
  );
  t.is((await world.status(host.address))?.phase, 'Ready');

  // A stopped kubelet: the drift check starts it, and only it.
  const repaired = await kubeletStoppedAndRepaired(world, 'win-a', host.sim);
  t.regex(repaired.message, /start service kubelet/);
  t.notRegex(repaired.message, /stop service/);
  t.deepEqual([...log.cordoned], [], 'never cordoned');
  t.is(await countOf(world, 'InstanceSetup'), 1, 'never configured again');
}

test.serial('Machines: a stopped kubelet is started again by the drift check; never cordoned', async (t) => {
  t.timeout(300_000);
  const { world } = await testWorld([], { platform: 'VSphere', driftRepairIntervalMs: 600_000 });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.startOperator();
  await world.machineApi().createMachineSet({ name: 'win', replicas: 1, platform: 'VSphere' });
  const [machine] = await settled(world, 'win', 1, 180_000);
  const name = machine?.status?.nodeRef?.name ?? '';
  const ip = machine?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
  const host = world.machineHost(ip);
  if (host === undefined) throw new Error(`no simulated host behind Machine ${machine?.metadata.name ?? ''}`);
  const log = new CordonLog();
  const stopWatch = await watchUnavailability(world, log);
  t.teardown(stopWatch);
  const setups = await countOf(world, 'NodeSetup');

  const repaired = await kubeletStoppedAndRepaired(world, name, host);
  t.regex(repaired.message, /start service kubelet/);
  t.deepEqual([...log.cordoned], [], 'never cordoned');
  t.is(await countOf(world, 'NodeSetup'), setups, 'never configured again');
});
