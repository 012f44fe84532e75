import test from 'ava';
import * as k8s from '@kubernetes/client-node';
import { startSimCluster, type SimCluster } from '../../cluster/sim-cluster.js';
import { KubeClient } from './kube-client.js';
import { waitFor } from './kubelet.test-helper.js';
import { postStatus, registerNode } from './node-agent.js';
import type { NodeIdentity } from './node-object.js';

let c: SimCluster;
let core: k8s.CoreV1Api;
let kc: k8s.KubeConfig;
test.before(async () => {
  c = await startSimCluster({ rbac: true });
  kc = new k8s.KubeConfig();
  kc.loadFromString(c.server.kubeconfig(c.admin));
  core = kc.makeApiClient(k8s.CoreV1Api);
});
test.after.always(async () => {
  await c.stop();
});

const identity = (name: string): NodeIdentity => ({
  name,
  internalIp: '10.0.0.61',
  labels: {},
  taints: [],
  windowsBuild: '10.0.20348',
  kubeletVersion: 'v1.36.0',
  osImage: 'Windows Server 2022 Datacenter',
});

/** A client of its own (the admin's token), so its requests can be told apart from the test's reads. */
const kubeletClient = (signal: AbortSignal): KubeClient =>
  new KubeClient({ server: c.server.url, caPem: c.server.caPem, token: c.admin.token }, signal);

const ready = (n: k8s.V1Node | undefined): string | undefined =>
  n?.status?.conditions?.find((x) => x.type === 'Ready')?.status;

test.serial('the Node is created with its status: Ready from its first version', async (t) => {
  const stop = new AbortController();
  t.teardown(() => stop.abort());
  const first: k8s.V1Node[] = [];
  const watch = await new k8s.Watch(kc).watch(
    '/api/v1/nodes',
    { fieldSelector: 'metadata.name=win-agent-1' },
    (type: string, node: k8s.V1Node) => {
      if (type === 'ADDED') first.push(node);
    },
    () => undefined,
  );
  t.teardown(() => watch.abort());
  await registerNode(kubeletClient(stop.signal), identity('win-agent-1'));
  const added = await waitFor('the ADDED event', () => first[0]);
  t.is(ready(added), 'True');
  t.deepEqual(
    added.status?.addresses?.map((a) => a.address),
    ['10.0.0.61', 'win-agent-1'],
  );
});

test.serial(
  'a status update is a patch of the status subresource: another writer changing the Node does not make it fail',
  async (t) => {
    const stop = new AbortController();
    t.teardown(() => stop.abort());
    const client = kubeletClient(stop.signal);
    const id = identity('win-agent-2');
    await registerNode(client, id);
    const since = c.server.requests.total;
    // The operator annotating (and cordoning) the Node while the kubelet reports: no update may fail.
    const writes = Array.from({ length: 10 }, (_, i) =>
      core.patchNode(
        { name: id.name, body: { metadata: { annotations: { [`test/${i}`]: 'x' } } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      ),
    );
    await Promise.all([...writes, ...Array.from({ length: 10 }, () => postStatus(client, id))]);
    const mine = c.server.requests
      .since(since)
      .filter((r) => r.path === `/api/v1/nodes/${id.name}/status`)
      .map((r) => r.method);
    t.true(mine.length >= 10);
    t.deepEqual([...new Set(mine)], ['PATCH'], 'never a PUT of the whole status');
    const node = await core.readNode({ name: id.name });
    t.is(ready(node), 'True');
    t.is(Object.keys(node.metadata?.annotations ?? {}).filter((k) => k.startsWith('test/')).length, 10);
  },
);
