import test from 'ava';
import { generateEd25519KeyPair } from '@wmco/sim';
import { settled } from './machine-wait.js';
import { applyAsAdmin, deployRbac, recordAllowed, recordRefusals, roleGrants, usedBy } from './rbac-world.js';
import { apis, testWorld, until, windowsNodes } from './world-fixture.js';

const MACHINE_NAMESPACES = ['openshift-machine-api', 'openshift-cluster-api'];

async function userData(world: Parameters<typeof apis>[0], namespace: string): Promise<string | undefined> {
  const s = await apis(world)
    .core.readNamespacedSecret({ name: 'windows-user-data', namespace })
    .catch(() => undefined);
  return s?.data?.['userData'];
}

// Windows Machines under exactly deploy/'s RBAC (ADR 0019): the Machines join, a key change replaces them
// and rewrites both windows-user-data copies, a scale-down removes one; nothing is refused, and every
// grant deploy/ adds for Machines is used (so none is granted without need).
test.serial(
  'Machines join, are replaced on a key change and scale down with only deploy/ RBAC; each Machine grant is used',
  async (t) => {
    const { world, logs } = await testWorld([], { rbac: true, platform: 'VSphere' });
    t.teardown(() => world.stop());
    const refused = recordRefusals(world);
    const used = recordAllowed(world);
    const objects = await deployRbac();
    await applyAsAdmin(world, objects);
    await world.createPrivateKeySecret();
    await world.startOperator();
    const api = world.machineApi();
    await api.createMachineSet({ name: 'win', replicas: 2, platform: 'VSphere' });
    const first = await settled(world, 'win', 2);
    const before = await Promise.all(MACHINE_NAMESPACES.map((ns) => userData(world, ns)));
    t.truthy(before[0], 'windows-user-data in openshift-machine-api');
    t.is(before[1], before[0], 'the copy in openshift-cluster-api');

    await world.createPrivateKeySecret(generateEd25519KeyPair().private);
    const old = new Set(first.map((m) => m.metadata.name));
    await until(
      'both Machines replaced',
      async () => {
        const ms = await settled(world, 'win', 2, 2000).catch(() => undefined);
        return ms?.every((m) => !old.has(m.metadata.name)) ? ms : undefined;
      },
      120_000,
    );
    const after = await Promise.all(MACHINE_NAMESPACES.map((ns) => userData(world, ns)));
    t.not(after[0], before[0], 'the user data follows the new key');
    t.is(after[1], after[0]);

    await api.scale('win', 1);
    await settled(world, 'win', 1);
    await until('one Windows node', async () =>
      (await windowsNodes(world)).length === 1 ? true : undefined,
    );

    t.deepEqual([...refused], [], 'no request of the operator was refused');
    t.false(
      logs.some((l) => /forbidden|HTTP 403|Machines are not watched/i.test(l)),
      'no refusal logged, Machines watched',
    );
    // A repeated event is patched (count); whether one repeats here is timing, so `patch` is not required.
    const machineGrants = roleGrants(objects, MACHINE_NAMESPACES).filter(
      (g) => !g.includes('|events|patch|'),
    );
    t.deepEqual(
      machineGrants.filter((g) => !usedBy(g, used)),
      [],
      'every grant deploy/ has for Machines was used',
    );
    t.true(
      usedBy('*||namespaces|get|openshift-cluster-api', used) ||
        usedBy('openshift-cluster-api||namespaces|get|openshift-cluster-api', used),
      'the openshift-cluster-api Namespace was read',
    );
    t.log(`Machine grants used: ${machineGrants.length}`);
  },
);
