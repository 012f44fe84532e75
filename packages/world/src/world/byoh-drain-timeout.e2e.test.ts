import test from 'ava';
import type { SimWorld } from './sim-world.js';
import { Workload } from './workload.js';
import { NS, eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

// Issue 29 item 5: a drain a PodDisruptionBudget blocks held a removal for ever, the node cordoned. The
// admin's drain timeout (`--drain-timeout`, ADR 0037) lets it go on; without it, it waits as before.

/** One joined node (win-a) with a pod whose PodDisruptionBudget never allows its eviction. */
async function pinnedNode(
  drainForceAfterMs?: number,
): Promise<{ world: SimWorld; pinned: Workload; pod: string }> {
  const { world } = await testWorld([{ hostname: 'WIN-A' }]);
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator('wmco-0', drainForceAfterMs === undefined ? {} : { drainForceAfterMs });
  await until('Ready', phaseIs(world, world.hosts.hosts[0]!.address, 'Ready'), 120_000);
  const pinned = new Workload(world, 'pinned', NS, 0);
  await pinned.policy.createNamespacedPodDisruptionBudget({
    namespace: NS,
    body: {
      metadata: { name: 'pinned' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'pinned' } } },
    },
  });
  const pod = await pinned.place('win-a');
  return { world, pinned, pod };
}

const event = (world: SimWorld, reason: string) => async (): Promise<string | undefined> =>
  (await eventsAbout(world)).find((e) => e.reason === reason && e.message.includes('win-a'))?.message;

test.serial(
  'without a drain timeout, a removal a PodDisruptionBudget blocks waits, node cordoned',
  async (t) => {
    const { world, pinned, pod } = await pinnedNode();
    t.teardown(() => world.stop());
    await world.setInstances({});
    const waiting = await until('DrainWaiting', event(world, 'DrainWaiting'), 60_000);
    t.regex(waiting, /a PodDisruptionBudget refuses the eviction\); giving up after 600s/);
    const node = (await windowsNodes(world)).find((n) => n.metadata?.name === 'win-a');
    t.true(node?.spec?.unschedulable, 'cordoned');
    t.true(
      (await pinned.pods()).some((p) => p.metadata?.name === pod),
      'the pod is still there',
    );
    t.is(
      (await eventsAbout(world)).find((e) => e.reason === 'DrainTimeout'),
      undefined,
    );
  },
);

test.serial('with a drain timeout, the pods are deleted at its end and the removal goes on', async (t) => {
  const { world, pinned, pod } = await pinnedNode(1000);
  t.teardown(() => world.stop());
  await world.setInstances({});
  const waiting = await until('DrainWaiting', event(world, 'DrainWaiting'), 60_000);
  t.regex(waiting, /deleting them after 1s \(the drain timeout\)/);
  const timeout = await until('DrainTimeout', event(world, 'DrainTimeout'), 60_000);
  t.regex(
    timeout,
    new RegExp(`Removal of node win-a: the drain timeout of 1s ran out; deleting ${NS}/${pod} despite`),
  );
  await until(
    'win-a removed',
    async () => ((await windowsNodes(world)).some((n) => n.metadata?.name === 'win-a') ? undefined : true),
    120_000,
  );
  t.false(
    (await pinned.pods()).some((p) => p.metadata?.name === pod),
    'the blocked pod was deleted',
  );
  t.truthy(
    await until('InstanceTeardown', async () =>
      (await eventsAbout(world)).find((e) => e.reason === 'InstanceTeardown'),
    ),
  );
});
