// The services ConfigMap is watched (issue 15 item 1): a deleted or replaced `windows-services-<version>`
// is put back through its watch (upstream's configmap controller), and every node is looked at again through
// the drift path (as upstream's WICD watches it). The drift poll and the keeper's resync are set to ten
// minutes, so only the watch can do either within the test.
import test from 'ava';
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { SimulatedWindowsHost } from '@wmco/sim';
import type { SimWorld } from './sim-world.js';
import {
  apis,
  eventsAbout,
  NS,
  phaseIs,
  testWorld,
  until,
  NO_DRIFT_POLL_MS,
  WATCHED_CHANGE_WAIT_MS,
} from './world-fixture.js';

async function servicesConfigMap(world: SimWorld): Promise<V1ConfigMap | undefined> {
  const list = await apis(world).core.listNamespacedConfigMap({ namespace: NS });
  return list.items.find((cm) => cm.metadata?.name?.startsWith('windows-services-'));
}

const commandOf = (host: SimulatedWindowsHost, name: string): string =>
  host.model.scm.get(name)?.commandLine ?? '';

/** Someone reconfigures hybrid-overlay-node by hand (`sc.exe config ... binPath= "... --loglevel 5"`). */
function tamper(host: SimulatedWindowsHost): string {
  const svc = host.model.scm.get('hybrid-overlay-node')!;
  const desired = svc.commandLine;
  host.model.scm.configure(svc.name, { ...svc, commandLine: `${desired} --loglevel 5` });
  if (commandOf(host, svc.name) === desired) throw new Error('the service was not reconfigured');
  return desired;
}

/**
 * Resolves once no host has started PowerShell for `quietMs`: the checks that follow a join (its node
 * updates enqueue a drift check) are over, so what happens next is the watch's doing.
 */
async function settled(world: SimWorld, quietMs = 2000): Promise<void> {
  const starts = (): string => world.hosts.hosts.map((h) => h.sim.stats.powershellStarts).join(',');
  let last = starts();
  let since = Date.now();
  await until('the hosts are quiet', () => {
    const now = starts();
    if (now !== last) [last, since] = [now, Date.now()];
    return Promise.resolve(Date.now() - since >= quietMs ? true : undefined);
  });
}

/** Resolves once the ConfigMap is back with exactly `data`, immutable, as another object (a new uid). */
function restored(
  world: SimWorld,
  data: V1ConfigMap['data'],
  oldUid: string,
): () => Promise<true | undefined> {
  return async () => {
    const cm = await servicesConfigMap(world);
    const same = JSON.stringify(cm?.data) === JSON.stringify(data) && cm?.immutable === true;
    return same && cm?.metadata?.uid !== oldUid ? true : undefined;
  };
}

test.serial(
  'a deleted or forged services ConfigMap is put back through the watch and every node gets a drift check',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }], {
      driftRepairIntervalMs: NO_DRIFT_POLL_MS,
    });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
    await world.startOperator('wmco-0', { servicesResyncMs: NO_DRIFT_POLL_MS });
    for (const h of world.hosts.hosts)
      await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 90_000);
    await settled(world);
    const [a, b] = world.hosts.hosts.map((h) => h.sim);
    if (!a || !b) return t.fail('two hosts');
    const { core } = apis(world);
    const original = (await servicesConfigMap(world))!;
    const name = original.metadata!.name!;
    const kubelet = [commandOf(a, 'kubelet'), commandOf(b, 'kubelet')];

    // 1. Deleted: back through the watch, and the drift on WIN-A repaired on the way.
    const wantA = tamper(a);
    let started = Date.now();
    await core.deleteNamespacedConfigMap({ name, namespace: NS });
    await until(
      'the ConfigMap is back',
      restored(world, original.data, original.metadata!.uid!),
      WATCHED_CHANGE_WAIT_MS,
    );
    await until(
      'WIN-A repaired',
      () => Promise.resolve(commandOf(a, 'hybrid-overlay-node') === wantA ? true : undefined),
      WATCHED_CHANGE_WAIT_MS,
    );
    t.log(`deleted: ConfigMap back and WIN-A repaired in ${Date.now() - started} ms`);

    // 2. Forged: someone replaces it with a kubelet command of their own. The operator's content is put
    // back; no node ever runs the forged command, and WIN-B's drift is repaired on the way.
    const current = (await servicesConfigMap(world))!;
    const wantB = tamper(b);
    started = Date.now();
    await core.deleteNamespacedConfigMap({ name, namespace: NS });
    const forged = (current.data?.['services'] ?? '').replace(
      '--windows-service',
      '--windows-service --v=10',
    );
    t.not(forged, current.data?.['services']);
    await core
      .createNamespacedConfigMap({
        namespace: NS,
        body: { metadata: { name, namespace: NS }, data: { ...current.data, services: forged } },
      })
      .catch(() => undefined); // the keeper may have been first: then there is nothing to forge
    await until(
      'the operator content is back',
      restored(world, original.data, current.metadata!.uid!),
      WATCHED_CHANGE_WAIT_MS,
    );
    await until(
      'WIN-B repaired',
      () => Promise.resolve(commandOf(b, 'hybrid-overlay-node') === wantB ? true : undefined),
      WATCHED_CHANGE_WAIT_MS,
    );
    t.log(`forged: ConfigMap back and WIN-B repaired in ${Date.now() - started} ms`);
    t.deepEqual(
      [commandOf(a, 'kubelet'), commandOf(b, 'kubelet')],
      kubelet,
      'the kubelets kept their command',
    );
    t.false(commandOf(a, 'kubelet').includes('--v=10'));

    const repaired = (await eventsAbout(world)).filter((e) => e.reason === 'DriftRepaired');
    for (const node of ['win-a', 'win-b'])
      t.true(
        repaired.some(
          (e) => e.message.includes(`Repaired node ${node} `) && e.message.includes('hybrid-overlay-node'),
        ),
        `a DriftRepaired event for ${node}`,
      );
  },
);
