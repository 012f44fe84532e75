import test from 'ava';
import { createCsr } from './x509.js';
import { asNode, MERGE, nodeBody, refusal } from './node-client.test-helper.js';
import { startApiServerWith } from './started-api-server.test-helper.js';
import type { SimApiServer } from './api-server.js';

// NodeRestriction (node-restriction*.ts, node-deletion.ts) through a real client: what a node may write.

async function world(t: { teardown(fn: () => Promise<void>): void }): Promise<SimApiServer> {
  const sim = await startApiServerWith(['kube-node-lease', 'ops']);
  t.teardown(() => sim.stop());
  sim.writer.create(sim.registry.mustFind('', 'v1', 'nodes'), undefined, { metadata: { name: 'win-b' } });
  return sim;
}

test('a node writes its own Node (annotations, addresses) and no other, not even by creating one', async (t) => {
  const sim = await world(t);
  const a = await asNode(sim, 'win-a');
  await a.core.createNode({ body: nodeBody('win-a') });
  const annotated = await a.core.patchNode(
    { name: 'win-a', body: { metadata: { annotations: { 'example.com/x': 'y' } } } },
    MERGE,
  );
  t.is(annotated.metadata?.annotations?.['example.com/x'], 'y');
  const addresses = [{ type: 'InternalIP', address: '192.0.2.7' }];
  const status = await a.core.patchNodeStatus({ name: 'win-a', body: { status: { addresses } } }, MERGE);
  t.deepEqual(
    status.status?.addresses?.map((x) => ({ ...x })),
    addresses,
  );
  const other = await refusal(
    a.core.patchNode({ name: 'win-b', body: { metadata: { annotations: { x: 'y' } } } }, MERGE),
  );
  t.is(other.code, 403);
  t.is(other.message, 'nodes "win-b" is forbidden: node "win-a" is not allowed to modify node "win-b"');
  t.is(
    (await refusal(a.core.patchNodeStatus({ name: 'win-b', body: { status: { addresses } } }, MERGE)))
      .message,
    'nodes "win-b" is forbidden: node "win-a" is not allowed to modify node "win-b"',
  );
  // Admission comes before storage: an existing name is 403, not 409; a new one is 403 too.
  for (const name of ['win-b', 'win-c'])
    t.is(
      (await refusal(a.core.createNode({ body: nodeBody(name) }))).message,
      `nodes "${name}" is forbidden: node "win-a" is not allowed to modify node "${name}"`,
    );
});

test('labels: the kubelet set and any non-Kubernetes key, never node-restriction.kubernetes.io/ nor other kubernetes.io ones', async (t) => {
  const sim = await world(t);
  const a = await asNode(sim, 'win-a');
  t.is(
    (await refusal(a.core.createNode({ body: nodeBody('win-a', { 'node-role.kubernetes.io/master': '' }) })))
      .message,
    'nodes "win-a" is forbidden: node "win-a" is not allowed to set the following labels: node-role.kubernetes.io/master',
  );
  await a.core.createNode({ body: nodeBody('win-a', { 'kubernetes.io/os': 'windows' }) });
  const allowed = {
    'kubernetes.io/os': 'linux',
    'topology.kubernetes.io/zone': 'z',
    'node.kubernetes.io/windows-build': '10.0.20348',
    'x.kubelet.kubernetes.io/y': 'z',
    'example.com/anything': 'v',
  };
  const patched = await a.core.patchNode({ name: 'win-a', body: { metadata: { labels: allowed } } }, MERGE);
  t.like(patched.metadata?.labels, allowed);
  const label = (labels: Record<string, string | null>) =>
    refusal(a.core.patchNode({ name: 'win-a', body: { metadata: { labels } } }, MERGE));
  t.is(
    (await label({ 'node-restriction.kubernetes.io/trusted': 'true', 'sub.k8s.io/x': 'y' })).message,
    'nodes "win-a" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/trusted, sub.k8s.io/x',
  );
  t.is((await label({ 'x.node-restriction.kubernetes.io/a': 'b' })).code, 403);
  t.is((await label({ 'node-role.kubernetes.io/worker': '' })).code, 403);
  // Removing one of the kubelet's own labels is allowed; removing someone else's restricted one is not.
  const without = await a.core.patchNode(
    { name: 'win-a', body: { metadata: { labels: { 'kubernetes.io/os': null } } } },
    MERGE,
  );
  t.is(without.metadata?.labels?.['kubernetes.io/os'], undefined);
  const nodes = sim.registry.mustFind('', 'v1', 'nodes');
  sim.writer.mutate({ type: nodes, namespace: undefined, name: 'win-a' }, (n) => {
    const m = n as { metadata: { labels: Record<string, string> } };
    m.metadata.labels['node-restriction.kubernetes.io/pool'] = 'windows';
    return n;
  });
  t.is((await label({ 'node-restriction.kubernetes.io/pool': null })).code, 403);
});

test('taints: set at registration, never changed afterwards by the node', async (t) => {
  const sim = await world(t);
  const a = await asNode(sim, 'win-a');
  const taint = { key: 'os', value: 'Windows', effect: 'NoSchedule' };
  await a.core.createNode({ body: { ...nodeBody('win-a'), spec: { taints: [taint] } } });
  t.is(
    (await refusal(a.core.patchNode({ name: 'win-a', body: { spec: { taints: [] } } }, MERGE))).message,
    'nodes "win-a" is forbidden: node "win-a" is not allowed to modify taints',
  );
  const unschedulable = await a.core.patchNode(
    { name: 'win-a', body: { spec: { unschedulable: true } } },
    MERGE,
  );
  t.true(unschedulable.spec?.unschedulable);
});

test('CSRs: a kubelet signer request must name the node itself', async (t) => {
  const sim = await world(t);
  const a = await asNode(sim, 'win-a');
  const csr = async (name: string, cn: string, signerName: string) => {
    const { csrPem } = await createCsr({ commonName: cn, organizations: ['system:nodes'] });
    const request = Buffer.from(csrPem).toString('base64');
    const usages = ['digital signature', 'server auth'];
    return a.certs.createCertificateSigningRequest({
      body: { metadata: { name }, spec: { request, signerName, usages } },
    });
  };
  const serving = 'kubernetes.io/kubelet-serving';
  t.is((await csr('own', 'system:node:win-a', serving)).spec.username, 'system:node:win-a');
  t.is(
    (await refusal(csr('theirs', 'system:node:win-b', serving))).message,
    'certificatesigningrequests.certificates.k8s.io "theirs" is forbidden: can only create a node CSR with CN=system:node:win-a',
  );
  t.is(
    (await refusal(csr('client', 'system:node:win-b', 'kubernetes.io/kube-apiserver-client-kubelet'))).code,
    403,
  );
  t.deepEqual(
    (await a.certs.listCertificateSigningRequest()).items.map((c) => c.metadata?.name),
    ['own'],
  );
});

test('pods: only mirror pods of its own, deletes and evictions of its own; its own Lease only', async (t) => {
  const sim = await world(t);
  const a = await asNode(sim, 'win-a');
  const pods = sim.registry.mustFind('', 'v1', 'pods');
  sim.writer.create(pods, 'ops', {
    metadata: { name: 'theirs' },
    spec: { nodeName: 'win-b', containers: [] },
  });
  sim.writer.create(pods, 'ops', { metadata: { name: 'mine' }, spec: { nodeName: 'win-a', containers: [] } });
  const body = {
    metadata: { name: 'p' },
    spec: { nodeName: 'win-a', containers: [{ name: 'c', image: 'i' }] },
  };
  t.is(
    (await refusal(a.core.createNamespacedPod({ namespace: 'ops', body }))).message,
    'pods "p" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "win-a" can only create mirror pods',
  );
  t.is(
    (await refusal(a.core.deleteNamespacedPod({ namespace: 'ops', name: 'theirs' }))).message,
    'pods "theirs" is forbidden: node "win-a" can only delete pods with spec.nodeName set to itself',
  );
  t.is(
    (
      await refusal(
        a.core.createNamespacedPodEviction({
          namespace: 'ops',
          name: 'theirs',
          body: { metadata: { name: 'theirs', namespace: 'ops' } },
        }),
      )
    ).message,
    'pods "theirs" is forbidden: node win-a can only evict pods with spec.nodeName set to itself',
  );
  await a.core.deleteNamespacedPod({ namespace: 'ops', name: 'mine' });
  t.is(sim.store.get(pods, 'ops', 'mine'), undefined);
  // A mirror pod of its own: annotated, bound to it, owned by its Node (uid checked).
  const own = await a.core.createNode({ body: nodeBody('win-a') });
  const owner = { apiVersion: 'v1', kind: 'Node', name: 'win-a', controller: true };
  const mirror = (uid: string) => ({
    metadata: {
      name: `static-${uid.slice(0, 4)}`,
      annotations: { 'kubernetes.io/config.mirror': 'hash' },
      ownerReferences: [{ ...owner, uid }],
    },
    spec: body.spec,
  });
  t.regex(
    (await refusal(a.core.createNamespacedPod({ namespace: 'ops', body: mirror('0000-wrong') }))).message,
    /node win-a UID mismatch: expected 0000-wrong got /,
  );
  const created = await a.core.createNamespacedPod({
    namespace: 'ops',
    body: mirror(own.metadata?.uid ?? ''),
  });
  t.is(created.spec?.nodeName, 'win-a');
  await a.leases.createNamespacedLease({
    namespace: 'kube-node-lease',
    body: { metadata: { name: 'win-a' } },
  });
  const leases = sim.registry.mustFind('coordination.k8s.io', 'v1', 'leases');
  sim.writer.create(leases, 'kube-node-lease', { metadata: { name: 'win-b' } });
  t.is(
    (await refusal(a.leases.deleteNamespacedLease({ namespace: 'kube-node-lease', name: 'win-b' }))).code,
    403,
  );
  await a.leases.deleteNamespacedLease({ namespace: 'kube-node-lease', name: 'win-a' });
});
