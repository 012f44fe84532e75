import test from 'ava';
import { startBareCluster } from '../cluster/bare-cluster.js';
import { asNode, asUser, nodeBody, refusal } from './node-client.test-helper.js';
import { startApiServerWith } from './started-api-server.test-helper.js';

// The Node authorizer (node-authorizer.ts) through a real client: what a node identity may read.

const userA = 'User "system:node:win-a"';

test('a node reads its own Node only: another Node or the list of all is 403 with the reason', async (t) => {
  const sim = await startApiServerWith(['kube-node-lease']);
  t.teardown(() => sim.stop());
  const a = await asNode(sim, 'win-a');
  await a.core.createNode({ body: nodeBody('win-a') });
  const nodes = sim.registry.mustFind('', 'v1', 'nodes');
  sim.writer.create(nodes, undefined, { metadata: { name: 'win-b' } });
  t.is((await a.core.readNode({ name: 'win-a' })).metadata?.name, 'win-a');
  const own = await a.core.listNode({ fieldSelector: 'metadata.name=win-a' });
  t.deepEqual(
    own.items.map((n) => n.metadata?.name),
    ['win-a'],
  );
  const other = await refusal(a.core.readNode({ name: 'win-b' }));
  t.is(other.code, 403);
  t.is(other.reason, 'Forbidden');
  t.is(
    other.message,
    `nodes "win-b" is forbidden: ${userA} cannot get resource "nodes" in API group "" at the cluster scope: node 'win-a' cannot read 'win-b', only its own Node object`,
  );
  t.regex(
    (await refusal(a.core.listNode())).message,
    /^nodes is forbidden: .* cannot list resource "nodes" .*: node 'win-a' cannot read all nodes, only its own Node object$/,
  );
  // Deleting a Node, even its own, is not among a node's rights.
  t.is((await refusal(a.core.deleteNode({ name: 'win-a' }))).code, 403);
});

test('Secrets and ConfigMaps: only those a pod bound to the node refers to', async (t) => {
  const sim = await startApiServerWith(['ops']);
  t.teardown(() => sim.stop());
  const a = await asNode(sim, 'win-a');
  const type = (plural: string) => sim.registry.mustFind('', 'v1', plural);
  sim.writer.create(type('secrets'), 'ops', { metadata: { name: 'creds' }, stringData: { k: 'v' } });
  sim.writer.create(type('secrets'), 'ops', { metadata: { name: 'used' }, stringData: { k: 'v' } });
  sim.writer.create(type('configmaps'), 'ops', { metadata: { name: 'settings' }, data: {} });
  const secret = await refusal(a.core.readNamespacedSecret({ namespace: 'ops', name: 'creds' }));
  t.is(
    secret.message,
    `secrets "creds" is forbidden: ${userA} cannot get resource "secrets" in API group "" in the namespace "ops": no relationship found between node 'win-a' and this object`,
  );
  t.regex(
    (await refusal(a.core.listNamespacedConfigMap({ namespace: 'ops' }))).message,
    /in the namespace "ops": No Object name found$/,
  );
  t.regex(
    (await refusal(a.core.createNamespacedConfigMap({ namespace: 'ops', body: { metadata: { name: 'x' } } })))
      .message,
    /cannot create resource "configmaps" .*: can only read resources of this type$/,
  );
  const pod = (name: string, nodeName: string) => ({
    metadata: { name },
    spec: {
      nodeName,
      containers: [{ name: 'c', image: 'i', envFrom: [{ secretRef: { name: 'used' } }] }],
      volumes: [{ name: 'v', configMap: { name: 'settings' } }],
    },
  });
  sim.writer.create(type('pods'), 'ops', pod('elsewhere', 'win-b'));
  t.is((await refusal(a.core.readNamespacedSecret({ namespace: 'ops', name: 'used' }))).code, 403);
  sim.writer.create(type('pods'), 'ops', pod('here', 'win-a'));
  t.is((await a.core.readNamespacedSecret({ namespace: 'ops', name: 'used' })).metadata?.name, 'used');
  t.is(
    (await a.core.readNamespacedConfigMap({ namespace: 'ops', name: 'settings' })).metadata?.name,
    'settings',
  );
  t.is((await refusal(a.core.readNamespacedSecret({ namespace: 'ops', name: 'creds' }))).code, 403);
  // Pods: its own by name or by the spec.nodeName selector, not the whole list.
  t.is((await a.core.readNamespacedPod({ namespace: 'ops', name: 'here' })).metadata?.name, 'here');
  t.is((await refusal(a.core.readNamespacedPod({ namespace: 'ops', name: 'elsewhere' }))).code, 403);
  const mine = await a.core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=win-a' });
  t.deepEqual(
    mine.items.map((p) => p.metadata?.name),
    ['here'],
  );
  t.regex(
    (await refusal(a.core.listPodForAllNamespaces())).message,
    /can only list\/watch pods with spec.nodeName field selector$/,
  );
});

test('Leases: its own in kube-node-lease only', async (t) => {
  const sim = await startApiServerWith(['kube-node-lease', 'ops']);
  t.teardown(() => sim.stop());
  const a = await asNode(sim, 'win-a');
  const lease = (name: string, namespace = 'kube-node-lease') => ({
    namespace,
    body: { metadata: { name }, spec: { holderIdentity: name } },
  });
  await a.leases.createNamespacedLease(lease('win-a'));
  t.is(
    (await a.leases.readNamespacedLease({ namespace: 'kube-node-lease', name: 'win-a' })).spec
      ?.holderIdentity,
    'win-a',
  );
  t.is(
    (await refusal(a.leases.createNamespacedLease(lease('win-b')))).message,
    'leases.coordination.k8s.io "win-b" is forbidden: can only access node lease with the same name as the requesting node',
  );
  t.regex(
    (await refusal(a.leases.readNamespacedLease({ namespace: 'kube-node-lease', name: 'win-b' }))).message,
    /^leases.coordination.k8s.io "win-b" is forbidden: .*: can only access node lease with the same name as the requesting node$/,
  );
  t.regex(
    (await refusal(a.leases.createNamespacedLease(lease('win-a', 'ops')))).message,
    /can only access leases in the "kube-node-lease" system namespace$/,
  );
});

test('RBAC seeds give system:nodes nothing: a non-node user in that group is refused; order is Node, then RBAC', async (t) => {
  const c = await startBareCluster({ rbac: true });
  t.teardown(() => c.stop());
  const nodes = c.server.registry.mustFind('', 'v1', 'nodes');
  c.server.writer.create(nodes, undefined, { metadata: { name: 'win-a' } });
  // CN=system:node:win-a without the group is not a node; O=system:nodes without the name is not either.
  const noGroup = await asUser(c.server, 'system:node:win-a', []);
  t.is((await refusal(noGroup.core.readNode({ name: 'win-a' }))).code, 403);
  const noName = await asUser(c.server, 'bob', ['system:nodes']);
  t.is((await refusal(noName.core.readNode({ name: 'win-a' }))).code, 403);
  t.is((await refusal(noName.core.createNode({ body: nodeBody('bob') }))).code, 403);
  const a = await asNode(c.server, 'win-a');
  t.is((await a.core.readNode({ name: 'win-a' })).metadata?.name, 'win-a');
  t.is((await refusal(a.core.listNamespacedSecret({ namespace: 'default' }))).code, 403);
  // What the Node authorizer leaves, RBAC may still grant (the binding below, not a default one).
  c.server.writer.create(
    c.server.registry.mustFind('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings'),
    undefined,
    {
      metadata: { name: 'nodes-read-all' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'User', name: 'system:node:win-a' }],
    },
  );
  t.deepEqual((await a.core.listNamespacedSecret({ namespace: 'default' })).items, []);
});
