import test from 'ava';
import { applyAsAdmin, deployRbac, operatorCore, recordRefusals } from './rbac-world.js';
import { phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

test.serial(
  'the operator joins and removes a host with only the permissions in deploy/, RBAC enforced',
  async (t) => {
    // Its SSH server is not on port 22, so its host key is pinned under `address:port`.
    const { world, logs } = await testWorld([{ hostname: 'WIN-RBAC', sshPort: 0 }], { rbac: true });
    t.teardown(() => world.stop());
    const refused = recordRefusals(world);
    // Without deploy/ the operator's ServiceAccount may do nothing: RBAC really is enforced.
    await t.throwsAsync(operatorCore(world).listNode(), { message: /403/ });
    t.is(refused.length, 1);
    refused.length = 0;
    const objects = await deployRbac();
    t.deepEqual([...new Set(objects.map((o) => o.kind))].sort(), [
      'ClusterRole',
      'ClusterRoleBinding',
      'Role',
      'RoleBinding',
      'ServiceAccount',
    ]);
    await applyAsAdmin(world, objects);
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const address = world.hosts.hosts[0]!.address;
    try {
      await until('Ready', phaseIs(world, address, 'Ready'), 15_000);
    } catch (err) {
      t.log(logs.filter((l) => l.includes('403') || l.includes('forbidden')).join('\n'));
      throw err;
    }
    const nodes = await windowsNodes(world);
    t.deepEqual(
      nodes.map((n) => n.metadata?.name),
      ['win-rbac'],
    );
    t.not(world.hosts.hosts[0]!.sim.port, 22);
    t.is(
      nodes[0]?.metadata?.annotations?.['windowsmachineconfig.openshift.io/ssh-host-key'],
      world.hosts.hosts[0]!.sim.hostKeyBase64,
      'the pinned host key is on the Node',
    );
    // And back out: drain, deconfigure, delete the Node.
    await world.setInstances({});
    await until('the node deleted', async () =>
      (await windowsNodes(world)).length === 0 ? true : undefined,
    );
    t.deepEqual([...refused], [], 'no request of the operator was refused');
    t.log(`permissions used: ${[...refused.used].sort().join(', ')}`);
    t.false(
      logs.some((l) => /forbidden|HTTP 403/i.test(l)),
      'no log line reports a refusal',
    );
  },
);
