import test from 'ava';
import * as k8s from '@kubernetes/client-node';
import { startSimCluster, type SimCluster } from '../../cluster/sim-cluster.js';
import { KubeClient } from './kube-client.js';
import { waitFor } from './kubelet.test-helper.js';
import { registerNode } from './node-agent.js';
import { heartbeat, statusChanged } from './node-heartbeat.js';
import type { NodeIdentity } from './node-object.js';

let c: SimCluster;
let core: k8s.CoreV1Api;
test.before(async () => {
  c = await startSimCluster({ rbac: true });
  const kc = new k8s.KubeConfig();
  kc.loadFromString(c.server.kubeconfig(c.admin));
  core = kc.makeApiClient(k8s.CoreV1Api);
});
test.after.always(async () => {
  await c.stop();
});

const identity = (name: string): NodeIdentity => ({
  name,
  internalIp: '10.0.0.71',
  labels: {},
  taints: [],
  windowsBuild: '10.0.20348',
  kubeletVersion: 'v1.36.0',
  osImage: 'Windows Server 2022 Datacenter',
});

/** Registers `name` and heartbeats every 30 ms until the test ends; the beats counted so far. */
async function beating(
  t: { teardown(fn: () => void): void },
  name: string,
  reportMs: number,
): Promise<{ beats: () => number; since: number }> {
  const stop = new AbortController();
  t.teardown(() => stop.abort());
  const client = new KubeClient(
    { server: c.server.url, caPem: c.server.caPem, token: c.admin.token },
    stop.signal,
  );
  const node = (await registerNode(client, identity(name))) as { metadata: { uid: string } };
  const since = c.server.requests.total;
  let beats = 0;
  void heartbeat(client, identity(name), {
    nodeUid: node.metadata.uid,
    intervalMs: 30,
    reportMs,
    signal: stop.signal,
    onBeat: (e) => {
      if (e === undefined) beats++;
    },
  });
  return { beats: () => beats, since };
}

const requests = (since: number, path: string): string[] =>
  c.server.requests
    .since(since)
    .filter((r) => r.path === path)
    .map((r) => r.method);

test.serial(
  'an unchanged status is not posted at each beat; the Lease is updated without a read',
  async (t) => {
    const { beats, since } = await beating(t, 'win-beat-1', 60_000);
    await waitFor('6 beats', () => (beats() >= 6 ? true : undefined));
    t.deepEqual(
      requests(since, '/api/v1/nodes/win-beat-1/status'),
      [],
      'no status patch while nothing changed',
    );
    const lease = requests(
      since,
      '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/win-beat-1',
    );
    t.true(lease.filter((m) => m === 'PUT').length >= 5);
    // Read once, by the first beat, which creates it; then the Lease last written is the one renewed.
    t.is(lease.filter((m) => m === 'GET').length, 1);
  },
);

test.serial('a status someone else changed is posted again at the next beat', async (t) => {
  const { beats } = await beating(t, 'win-beat-2', 60_000);
  await waitFor('a beat', () => (beats() >= 1 ? true : undefined));
  // The node lifecycle controller's mark: Ready Unknown (the kubelet stopped posting, as it believed).
  const node = await core.readNode({ name: 'win-beat-2' });
  const conditions = (node.status?.conditions ?? []).map((x) => ({ ...x, status: 'Unknown' }));
  await core.replaceNodeStatus({
    name: 'win-beat-2',
    body: { ...node, status: { ...node.status, conditions } },
  });
  const ready = await waitFor('Ready True again', async () => {
    const n = await core.readNode({ name: 'win-beat-2' });
    return n.status?.conditions?.find((x) => x.type === 'Ready')?.status === 'True' ? true : undefined;
  });
  t.true(ready);
});

test.serial('an unchanged status is still posted once per report period', async (t) => {
  const { beats, since } = await beating(t, 'win-beat-3', 100);
  await waitFor('two posts', () =>
    requests(since, '/api/v1/nodes/win-beat-3/status').length >= 2 ? true : undefined,
  );
  t.true(beats() >= 2);
});

test('heartbeat times alone and key order are no change; a condition or an address is', (t) => {
  const ready = { type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', reason: 'R' };
  const current = { conditions: [ready], addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] };
  const beat = { ...ready, lastHeartbeatTime: '2026-01-01T00:00:10Z' };
  t.false(statusChanged(current, { conditions: [beat] }));
  t.false(statusChanged(current, { conditions: [{ reason: 'R', status: 'True', type: 'Ready' }] }));
  t.true(statusChanged(current, { conditions: [{ ...beat, status: 'False' }] }));
  t.true(statusChanged(current, { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }] }));
});
