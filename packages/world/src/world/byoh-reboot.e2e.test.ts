import test from 'ava';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { REBOOT_REQUESTED_ANNOTATION, REBOOT_REQUIRED_ANNOTATION } from '@wmco/core/internal';
import { requestReboot } from '@wmco/operator';
import { Watchdog } from './watchdog.js';
import { apis, eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

const METADATA_ROUTE = '169.254.169.254/32';
const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

test.serial(
  'two reboot requests at once (reboot-required and wmco reboot): one at a time, each back Ready, uncordoned, with its AWS metadata route',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }], {
      platform: 'AWS',
      costs: { powershellStartMs: 50, rebootMs: 1000 },
    });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
    await world.startOperator('wmco-0');
    // On AWS the node name is the instance's private DNS name (hostname override): read it from the status.
    const nodeOf = new Map<string, string>();
    for (const h of world.hosts.hosts) {
      const s = await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 120_000);
      nodeOf.set(h.spec.hostname.toLowerCase(), s.node ?? '');
    }
    const [nodeA, nodeB] = [...nodeOf.values()] as [string, string];
    const booted = new Map<string, number>();
    for (const h of world.hosts.hosts) {
      t.true(
        h.sim.model.routes.some((r) => r.destinationPrefix === METADATA_ROUTE),
        'the join added the route',
      );
      // Not persisted (no EC2Launch v2 add-routes --persistent): a boot loses it, as on a real instance.
      h.sim.model.volatileRoutes.add(METADATA_ROUTE);
      booted.set(h.spec.hostname.toLowerCase(), h.sim.model.lastBootTime.getTime());
    }
    const dog = new Watchdog(world);
    await dog.start();
    const { core } = apis(world);
    await core.patchNode(
      { name: nodeA, body: { metadata: { annotations: { [REBOOT_REQUIRED_ANNOTATION]: '' } } } },
      mergePatch,
    );
    await requestReboot(core, nodeB);
    await until(
      'both nodes rebooted and back in service',
      async () => {
        const nodes = await windowsNodes(world);
        const done = world.hosts.hosts.every((h) => {
          const name = h.spec.hostname.toLowerCase();
          const n = nodes.find((x) => x.metadata?.name === nodeOf.get(name));
          const a = n?.metadata?.annotations ?? {};
          return (
            h.sim.model.lastBootTime.getTime() > (booted.get(name) ?? 0) &&
            !n?.spec?.unschedulable &&
            a[REBOOT_REQUIRED_ANNOTATION] === undefined &&
            a[REBOOT_REQUESTED_ANNOTATION] === undefined &&
            (n?.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
          );
        });
        return done ? true : undefined;
      },
      120_000,
    );
    dog.stop();
    t.is(dog.maxUnavailable, 1, `one node out at a time (worst: ${dog.worst.join(', ')})`);
    for (const h of world.hosts.hosts)
      t.true(
        h.sim.model.routes.some((r) => r.destinationPrefix === METADATA_ROUTE),
        `${h.spec.hostname}: the metadata route is back after the reboot`,
      );
    await until('a Rebooted event for each node', async () => {
      const events = await eventsAbout(world);
      return [nodeA, nodeB].every((n) =>
        events.some((e) => e.reason === 'Rebooted' && e.message.includes(`node ${n} `)),
      )
        ? true
        : undefined;
    });
    t.pass();
  },
);

test.serial(
  'wmco reboot refuses a node the operator did not join, and a node that does not exist',
  async (t) => {
    const { world } = await testWorld([]);
    t.teardown(() => world.stop());
    const { core } = apis(world);
    // worker-0: a Linux worker the simulated cluster starts with.
    await t.throwsAsync(requestReboot(core, 'worker-0'), {
      message: 'node worker-0 is not a Windows node joined by the operator; nothing was changed',
    });
    const n = await core.readNode({ name: 'worker-0' });
    t.is(n.metadata?.annotations?.[REBOOT_REQUESTED_ANNOTATION], undefined);
    await t.throwsAsync(requestReboot(core, 'nope'), { message: 'node nope does not exist' });
  },
);
