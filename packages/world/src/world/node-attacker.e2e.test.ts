import test from 'ava';
import { ApiException } from '@kubernetes/client-node';
import { nodeAttacker, withInternalIp } from './node-attacker.js';
import { apis, NS, phaseIs, testWorld, until } from './world-fixture.js';

/** The Status a refused call got: code and message. */
async function refused(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof ApiException)) throw e;
    const body = JSON.parse(String(e.body)) as { message?: string };
    return { code: e.code, message: body.message ?? '' };
  }
  throw new Error('expected the API server to refuse the call');
}

test('withInternalIp replaces the InternalIP, or puts one first', (t) => {
  const host = { type: 'Hostname', address: 'win-a' };
  t.deepEqual(withInternalIp([{ type: 'InternalIP', address: '10.0.0.1' }, host], '192.0.2.9'), [
    { type: 'InternalIP', address: '192.0.2.9' },
    host,
  ]);
  t.deepEqual(withInternalIp([host], '192.0.2.9'), [{ type: 'InternalIP', address: '192.0.2.9' }, host]);
});

test.serial(
  "a joined node's kubelet identity writes its own Node's annotations and addresses, and nothing else",
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }]);
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const address = world.hosts.hosts[0]?.address ?? '';
    await until('WIN-A Ready', phaseIs(world, address, 'Ready'), 90_000);
    const attacker = await nodeAttacker(world, 'win-a');
    const user = 'User "system:node:win-a"';

    // Its own Node: annotations and the InternalIP, as NodeRestriction allows.
    const annotated = await attacker.setAnnotations({ 'windowsmachineconfig.openshift.io/forged': 'yes' });
    t.is(annotated.metadata?.annotations?.['windowsmachineconfig.openshift.io/forged'], 'yes');
    const moved = await attacker.setInternalIp('192.0.2.9');
    t.true(moved.status?.addresses?.some((a) => a.type === 'InternalIP' && a.address === '192.0.2.9'));
    const labelled = await attacker.setLabels({ 'example.com/team': 'red' });
    t.is(labelled.metadata?.labels?.['example.com/team'], 'red');

    // Another Node (a Linux worker): neither metadata nor status, nor a Node of its own making.
    const other = await refused(attacker.setAnnotations({ x: 'y' }, 'worker-0'));
    t.is(other.code, 403);
    t.is(
      other.message,
      'nodes "worker-0" is forbidden: node "win-a" is not allowed to modify node "worker-0"',
    );
    t.is(
      (await refused(attacker.setAddresses([{ type: 'InternalIP', address: address }], 'worker-0'))).code,
      403,
    );
    t.is(
      (await refused(attacker.core.createNode({ body: { metadata: { name: 'win-z' } } }))).message,
      'nodes "win-z" is forbidden: node "win-a" is not allowed to modify node "win-z"',
    );

    // Restricted labels on its own Node.
    t.is(
      (await refused(attacker.setLabels({ 'node-restriction.kubernetes.io/windows': 'true' }))).message,
      'nodes "win-a" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/windows',
    );
    t.is((await refused(attacker.setLabels({ 'node-role.kubernetes.io/worker': null }))).code, 403);

    // The operator's namespace: its Secrets and ConfigMaps are neither readable nor writable.
    const secret = await refused(
      attacker.core.readNamespacedSecret({ namespace: NS, name: 'cloud-private-key' }),
    );
    t.is(
      secret.message,
      `secrets "cloud-private-key" is forbidden: ${user} cannot get resource "secrets" in API group "" in the namespace "${NS}": no relationship found between node 'win-a' and this object`,
    );
    t.is((await refused(attacker.core.listNamespacedSecret({ namespace: NS }))).code, 403);
    t.is(
      (await refused(attacker.core.readNamespacedConfigMap({ namespace: NS, name: 'windows-instances' })))
        .code,
      403,
    );
    const write = await refused(
      attacker.core.patchNamespacedConfigMap({
        namespace: NS,
        name: 'windows-instances',
        body: [{ op: 'add', path: '/data/192.0.2.9', value: 'username=Administrator' }],
      }),
    );
    t.regex(write.message, /cannot patch resource "configmaps" .*: can only read resources of this type$/);
    const instances = await apis(world).core.readNamespacedConfigMap({
      namespace: NS,
      name: 'windows-instances',
    });
    t.false(Object.keys(instances.data ?? {}).includes('192.0.2.9'));
  },
);
