import test from 'ava';
import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import { emptyHostSpec, StateHost, stateMatching, testDeps, testNode } from './lifecycle.test-helper.js';
import { NodeNotOwnedError } from '../identity/node-ownership.js';
import { DisruptionBudget } from './disruption-budget.js';
import { UpgradeFlow } from './upgrade-flow.js';
import { byohSourceInstance } from '../sources/byoh/byoh-instance.js';

/**
 * A CoreV1Api that records calls; pods on the node are refused eviction (a PDB) when `blocked`; `readNode`
 * answers `current` (the API's copy of the node).
 */
function recordingCore(
  blocked: boolean,
  current?: V1Node,
  pods = [{ metadata: { name: 'web-1', namespace: 'app', uid: 'u1' } }],
): { core: CoreV1Api; calls: string[] } {
  const calls: string[] = [];
  const answers: Record<string, () => Promise<unknown>> = {
    readNode: () => Promise.resolve(current),
    listPodForAllNamespaces: () => Promise.resolve({ items: pods }),
    createNamespacedPodEviction: () =>
      blocked ? Promise.reject(Object.assign(new Error('429'), { code: 429 })) : Promise.resolve({}),
  };
  const core = new Proxy(
    {},
    {
      get: (_t, method: string) => (arg: unknown) => {
        calls.push(
          method === 'patchNode' ? `patchNode ${JSON.stringify((arg as { body: unknown }).body)}` : method,
        );
        return answers[method]?.() ?? Promise.resolve({});
      },
    },
  ) as CoreV1Api;
  return { core, calls };
}

/** A status store whose writes go to `set` (the flow reads nothing back). */
function statusWith(set: (s: { phase: string }) => Promise<void>) {
  return { get: () => undefined, set, remove: () => Promise.resolve(), retain: () => Promise.resolve() };
}

const host = (): StateHost =>
  new StateHost(
    stateMatching(emptyHostSpec()),
    // Every value script answers the node's address (the only one without a hostname override: NODE_IP).
    new Proxy({}, { get: () => '10.0.0.5' }),
  );
const target = { address: '10.0.0.5', ipv4: '10.0.0.5', username: 'Administrator', privateKeyPem: 'k' };
const instance = byohSourceInstance('wmco', { address: '10.0.0.5', ipv4Address: '10.0.0.5' });
const ready = (n: V1Node): V1Node => ({
  ...n,
  metadata: {
    ...n.metadata,
    annotations: { ...n.metadata?.annotations, 'windowsmachineconfig.openshift.io/version': '0.0.9' },
  },
  status: { ...n.status, conditions: [{ type: 'Ready', status: 'True' }] },
});

test('no room in the budget: the node is not touched and the caller learns who is out', async (t) => {
  const { core, calls } = recordingCore(false);
  const busy: V1Node = {
    metadata: { name: 'win-b' },
    status: { conditions: [{ type: 'Ready', status: 'False' }] },
  };
  const node = ready(testNode());
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => [node, busy]);
  const flow = new UpgradeFlow(testDeps(host(), { core }), budget, { drainTimeoutMs: 1000 });
  const out = await flow.upgrade({ node, target, instance, signal: new AbortController().signal });
  t.deepEqual(out, { result: 'waiting', max: 1, unavailable: ['win-b'] });
  t.deepEqual(calls, []);
});

test('a node of another instance is refused before any grant or call', async (t) => {
  const { core, calls } = recordingCore(false);
  const node = ready(testNode('win-a', '10.0.0.7'));
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => [node]);
  const flow = new UpgradeFlow(testDeps(host(), { core }), budget, { drainTimeoutMs: 1000 });
  await t.throwsAsync(flow.upgrade({ node, target, instance, signal: new AbortController().signal }), {
    instanceOf: NodeNotOwnedError,
  });
  t.deepEqual(calls, []);
  t.deepEqual(budget.holding(), []);
});

test('a drain a PDB blocks past the bounded wait: Warning events, node back in service, grant released, never forced', async (t) => {
  const node = ready(testNode());
  const { core, calls } = recordingCore(true, node);
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => [node]);
  const deps = testDeps(host(), { core });
  const flow = new UpgradeFlow(deps, budget, { drainTimeoutMs: 50, drainRetryMs: 10 });
  const out = await flow.upgrade({ node, target, instance, signal: new AbortController().signal });
  t.is(out.result, 'drain-blocked');
  t.deepEqual(
    deps.events.events.map((e) => `${e.object.kind}/${e.type}/${e.reason}`),
    ['Node/Normal/UpgradeStarted', 'Node/Warning/DrainWaiting', 'Node/Warning/UpgradeDrainTimeout'],
  );
  const patches = calls.filter((c) => c.startsWith('patchNode'));
  t.regex(patches[0] ?? '', /"unschedulable":true.*lifecycle-phase":"Draining"/);
  t.regex(patches.at(-1) ?? '', /"unschedulable":null.*lifecycle-phase":null/);
  t.false(calls.includes('deleteNamespacedPod'), 'never forced');
  t.deepEqual(budget.holding(), []);
});

test('a node the caller saw before the last pass finished (a stale cache) is not upgraded again', async (t) => {
  const stale = ready(testNode());
  const annotations = {
    ...stale.metadata?.annotations,
    'windowsmachineconfig.openshift.io/version': '1.0.0',
  };
  const upgraded: V1Node = { ...stale, metadata: { ...stale.metadata, annotations } };
  const { core, calls } = recordingCore(false, upgraded);
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => [stale]);
  const deps = testDeps(host(), { core, version: '1.0.0' });
  const flow = new UpgradeFlow(deps, budget, { drainTimeoutMs: 1000 });
  const out = await flow.upgrade({ node: stale, target, instance, signal: new AbortController().signal });
  t.deepEqual(out, { result: 'done', bytesSent: 0 });
  t.deepEqual(calls, ['readNode'], 'no cordon, no drain');
  t.deepEqual(deps.events.events, [], 'no second Upgraded event');
  t.deepEqual(budget.holding(), []);
});

test('a pass writes the Ready status and leaves its lifecycle together; a lost status write fails it, the Node back in service', async (t) => {
  const node = ready(testNode());
  const { core, calls } = recordingCore(false, node, []);
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => [node]);
  const phases: string[] = [];
  const status = statusWith((s: { phase: string }): Promise<void> => {
    phases.push(s.phase);
    calls.push(`status ${s.phase}`);
    return s.phase === 'Ready' ? Promise.reject(new Error('429 Too Many Requests')) : Promise.resolve();
  });
  const flow = new UpgradeFlow(testDeps(host(), { core, status }), budget, { drainTimeoutMs: 1000 });
  await t.throwsAsync(flow.upgrade({ node, target, instance, signal: new AbortController().signal }), {
    message: /429/,
  });
  t.deepEqual(phases, ['Upgrading', 'Ready']);
  const patches = calls.filter((c) => c.startsWith('patchNode'));
  // Not held out of service for a status write: the next reconcile of the instance finds a joined, Ready
  // node whose status is not Ready and writes it (joined-status.ts, byoh-decision.test.ts).
  t.true(
    patches.some((p) => /"unschedulable":null.*lifecycle-phase":null/.test(p)),
    'the Node left its lifecycle, uncordoned, with the new version',
  );
  t.deepEqual(budget.holding(), []);
});

test('a pass that ends writes the Ready status and uncordons with the new version, holding its grant until then', async (t) => {
  const node = ready(testNode());
  const { core, calls } = recordingCore(false, node, []);
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => [node]);
  const status = statusWith((s: { phase: string }): Promise<void> => {
    calls.push(`status ${s.phase}`);
    return Promise.resolve();
  });
  const deps = testDeps(host(), { core, status });
  const held: string[][] = [];
  const record = deps.events.record.bind(deps.events);
  deps.events.record = (...args: Parameters<typeof record>) => {
    held.push([...budget.holding()]);
    return record(...args);
  };
  const flow = new UpgradeFlow(deps, budget, { drainTimeoutMs: 1000 });
  const out = await flow.upgrade({ node, target, instance, signal: new AbortController().signal });
  t.is(out.result, 'done');
  const ends = calls.filter((c) => c === 'status Ready' || c.includes('lifecycle-phase":null'));
  t.is(ends.length, 2);
  t.true(ends.includes('status Ready'));
  t.regex(
    ends.find((c) => c !== 'status Ready') ?? '',
    /"unschedulable":null.*version":"0\.1\.0".*lifecycle-phase":null/,
  );
  // The grant is held from the cordon to the uncordon, and given back before the last event's write: a
  // node waiting for it that asks before the cache has the uncordon is handed the slot when the cache
  // has it (DisruptionBudget.nodeChanged).
  t.deepEqual(held, [['win-a'], []]);
  t.deepEqual(
    deps.events.events.map((e) => e.reason),
    ['UpgradeStarted', 'Upgraded'],
  );
});

test('a pass is cordoned and drained while its Upgrading status is written, touches the host once it is, and gives its slot back while Ready is written', async (t) => {
  const node = ready(testNode());
  const { core, calls } = recordingCore(false, node, []);
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => [node]);
  // Every status write hangs until the test lets it finish (the status ConfigMap busy with other writes).
  const writes: { phase: string; finish: () => void }[] = [];
  const status = statusWith(
    (s: { phase: string }): Promise<void> =>
      new Promise<void>((finish) => {
        writes.push({ phase: s.phase, finish });
        calls.push(`status ${s.phase}`);
      }),
  );
  const h = host();
  const flow = new UpgradeFlow(testDeps(h, { core, status }), budget, { drainTimeoutMs: 1000 });
  const pass = flow.upgrade({ node, target, instance, signal: new AbortController().signal });
  const tick = (): Promise<unknown> => new Promise((r) => setImmediate(r));
  const seen = async (what: (c: string) => boolean): Promise<void> => {
    while (!calls.some(what)) await tick();
  };
  await seen((c) => c === 'listPodForAllNamespaces');
  t.true(
    calls.some((c) => /lifecycle-phase":"Draining"/.test(c)),
    'cordoned and draining while Upgrading is still being written',
  );
  for (let i = 0; i < 20; i++) await tick();
  t.deepEqual(h.queries.length + h.applied.length, 0, 'the host is not touched before its status says so');
  t.deepEqual(
    writes.map((w) => w.phase),
    ['Upgrading'],
  );
  writes[0]?.finish();
  await seen((c) => /lifecycle-phase":null/.test(c));
  await tick();
  t.deepEqual(
    writes.map((w) => w.phase),
    ['Upgrading', 'Ready'],
  );
  t.deepEqual(budget.holding(), [], 'uncordoned: the grant is given back before the Ready status write ends');
  for (const w of writes) w.finish();
  t.is((await pass).result, 'done');
});

test('a failed Upgrading status write fails the pass before the host is touched, the node left cordoned in its phase for the retry', async (t) => {
  const node = ready(testNode());
  const { core, calls } = recordingCore(false, node, []);
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => [node]);
  const status = statusWith((s: { phase: string }): Promise<void> =>
    s.phase === 'Upgrading' ? Promise.reject(new Error('503 Service Unavailable')) : Promise.resolve(),
  );
  const h = host();
  const flow = new UpgradeFlow(testDeps(h, { core, status }), budget, { drainTimeoutMs: 1000 });
  await t.throwsAsync(flow.upgrade({ node, target, instance, signal: new AbortController().signal }), {
    message: /503/,
  });
  t.is(h.applied.length, 0, 'nothing applied on the host');
  const patches = calls.filter((c) => c.startsWith('patchNode'));
  t.is(patches.length, 1);
  t.regex(patches[0] ?? '', /"unschedulable":true.*lifecycle-phase":"Draining"/);
  t.deepEqual(budget.holding(), []);
});
