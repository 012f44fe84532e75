import test from 'ava';
import { csrApiAsNode, SERVING, submitCsr } from './identity-csrs.js';
import {
  approvedServingFor,
  csrRefused,
  hostileNodeScene,
  mismatchReported,
  victimIntact,
} from './hostile-node-scenario.js';
import { apis, joinAll, testWorld, until } from './world-fixture.js';
import { wmcoPlan } from './wmco-plan.test-helper.js';

// The victim is listed by DNS name (every such host was a target of the removal), the attacker by IP.
// Drift repair is off, so any SSH connection to the victim after the attack would be the attack's.
const HOSTS = [{ hostname: 'WIN-V', dnsName: 'win-v.sim.internal' }, { hostname: 'WIN-X' }];
const OPTIONS = { driftRepairIntervalMs: 0 };

test.serial(
  'a node that names an unknown owner and another host’s address is reported, and nothing reaches that host',
  async (t) => {
    const { world } = await testWorld(HOSTS, OPTIONS);
    t.teardown(() => world.stop());
    await joinAll(world);
    const scene = await hostileNodeScene(world, 'win-x');
    const running = await victimIntact(scene);
    const connections = scene.victim.sim.stats.connectionsAccepted;

    await scene.attacker.forge({ owner: 'no-such-host.sim.internal', internalIp: scene.victim.address });
    const message = await mismatchReported(
      world,
      'win-x',
      new RegExp(`InternalIP is ${scene.victim.address}`),
    );
    t.regex(message, /no-such-host\.sim\.internal/);
    t.regex(message, /no SSH connection/);
    const status = await until('the attacker’s status says why', async () => {
      const s = await world.status(scene.attackerHost.address);
      return s?.lastError?.includes('contradicts') ? s : undefined;
    });
    t.is(status.node, 'win-x');
    // An admin's `wmco plan` does not connect for it either.
    const plan = await wmcoPlan(world, 'win-x', '-o', 'json');
    const planned = JSON.parse(plan.stdout) as { nodes: { node: string; result: string; error?: string }[] };
    t.like(planned.nodes[0], { node: 'win-x', result: 'error' });
    t.regex(planned.nodes[0]?.error ?? '', /contradicts the operator's record/);

    // Its entry removed: the hostile Node is deleted, and still nothing connects to either host.
    const attackerConnections = scene.attackerHost.sim.stats.connectionsAccepted;
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await mismatchReported(world, 'win-x', /Node object is deleted/);
    await until('win-x deleted', async () =>
      (await apis(world).core.listNode()).items.some((n) => n.metadata?.name === 'win-x') ? undefined : true,
    );
    t.is(scene.victim.sim.stats.connectionsAccepted, connections, 'no SSH connection to the victim');
    t.is(scene.attackerHost.sim.stats.connectionsAccepted, attackerConnections, 'none to the attacker');
    t.deepEqual(await victimIntact(scene), running, 'the victim keeps every service');
    t.true(scene.victim.sim.model.files.isDirectory('C:\\k'));
    const victimNode = await apis(world).core.readNode({ name: 'win-v' });
    t.is(
      victimNode.metadata?.annotations?.['windowsmachineconfig.openshift.io/instance-address'],
      'win-v.sim.internal',
    );
  },
);

test.serial(
  'a node that claims another instance gets no certificate for it, and the victim is not reconfigured',
  async (t) => {
    const { world } = await testWorld(HOSTS, OPTIONS);
    t.teardown(() => world.stop());
    await joinAll(world);
    const scene = await hostileNodeScene(world, 'win-x');
    const running = await victimIntact(scene);
    const connections = scene.victim.sim.stats.connectionsAccepted;
    const invocations = scene.victim.sim.invocations.length;

    // Its kubelet, restarted with the victim's address, asks for a serving certificate for it at once.
    await scene.attacker.forge({ owner: 'win-v.sim.internal', internalIp: scene.victim.address });
    await mismatchReported(world, 'win-x', /win-v\.sim\.internal/);
    const api = await csrApiAsNode(world, 'win-x');
    const subject = { commonName: 'system:node:win-x', organizations: ['system:nodes'] };
    await submitCsr(api, 'x-victim-ip', { ...subject, ipAddresses: [scene.victim.address] }, SERVING);
    await submitCsr(api, 'x-victim-dns', { ...subject, dnsNames: ['win-v.sim.internal'] }, SERVING);
    t.regex(await csrRefused(world, 'x-victim-ip'), /contradicts the operator's record/);
    t.regex(await csrRefused(world, 'x-victim-dns'), /contradicts the operator's record/);
    const approved = await approvedServingFor(world, scene.victim.address, 'win-v.sim.internal');
    t.deepEqual(
      approved.map((c) => c.spec.username),
      ['system:node:win-v'],
      'only the victim’s own kubelet holds a serving certificate for its address and name',
    );

    // Its entry removed: its Node is deleted (no SSH anywhere), the victim untouched throughout.
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await mismatchReported(world, 'win-x', /Node object is deleted/);
    await until('win-x deleted', async () =>
      (await apis(world).core.listNode()).items.some((n) => n.metadata?.name === 'win-x') ? undefined : true,
    );
    t.is(scene.victim.sim.stats.connectionsAccepted, connections, 'no SSH connection to the victim');
    t.is(scene.victim.sim.invocations.length, invocations, 'nothing ran on the victim');
    t.deepEqual(await victimIntact(scene), running);
  },
);
