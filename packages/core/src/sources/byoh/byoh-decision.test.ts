import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import type { V1Node } from '@kubernetes/client-node';
import { publicKeyHash } from '../../desired/authorized-key.js';
import { publicKeyOf } from '../../desired/public-key.js';
import { Annotations, Labels } from '../../identity/node-metadata.js';
import { MemoryNodeRecords } from '../../identity/memory-node-records.js';
import type { NodeRecord } from '../../identity/node-record.js';
import type { JoinFlow } from '../../lifecycle/join-flow.js';
import type { KeyRotation } from '../../lifecycle/key-rotation.js';
import { StateHost, stateMatching, testDeps } from '../../lifecycle/lifecycle.test-helper.js';
import type { NodeUpgrades } from '../../lifecycle/node-upgrades.js';
import { MemoryStatusStore } from '../../lifecycle/instance-status.js';
import type { RemoveFlow } from '../../lifecycle/remove-flow.js';
import type { DriftRepair } from '../../lifecycle/drift-repair.js';
import { planByohInstance, type ByohAction } from './byoh-plan.js';
import { ENTRY_PREFIX } from './byoh-view.js';
import { InstancesReconciler } from './instances-reconciler.js';

// Issue 26: one decision per source. Each row is fed to the BYOH reconciler (fakes record which flow it
// started) and to `planByohInstance`, the decision `wmco plan` prints; both must agree.

const PEM = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
}).privateKey;
const HASH = publicKeyHash(publicKeyOf(PEM));
const VERSION = '0.1.0';
const IP = '10.0.0.5';

function node(annotations: Record<string, string>, ready = true): V1Node {
  return {
    metadata: {
      name: 'byoh-a',
      labels: { [Labels.byoh]: 'true' },
      annotations: { [Annotations.instanceAddress]: IP, ...annotations },
    },
    status: {
      addresses: [{ type: 'InternalIP', address: IP }],
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    },
  };
}

const current = { [Annotations.version]: VERSION, [Annotations.pubKeyHash]: HASH };

const ROWS: readonly { state: string; node?: V1Node; expected: ByohAction }[] = [
  { state: 'no node', expected: 'join' },
  { state: 'current and Ready', node: node(current), expected: 'check-drift' },
  { state: 'current, not Ready', node: node(current, false), expected: 'check-drift' },
  {
    state: 'another key, not Ready',
    node: node({ ...current, [Annotations.pubKeyHash]: 'b'.repeat(64) }, false),
    expected: 'join',
  },
  {
    state: 'another key',
    node: node({ ...current, [Annotations.pubKeyHash]: 'b'.repeat(64) }),
    expected: 'rotate-key',
  },
  {
    state: 'another version, Ready',
    node: node({ ...current, [Annotations.version]: '0.0.9' }),
    expected: 'upgrade',
  },
  {
    state: 'another version, not Ready',
    node: node({ ...current, [Annotations.version]: '0.0.9' }, false),
    expected: 'join',
  },
  {
    state: 'reboot requested',
    node: node({ ...current, 'windowsmachineconfig.openshift.io/reboot-requested': 'x' }),
    expected: 'reboot',
  },
  {
    state: 'left mid-way',
    node: node({ ...current, 'windowsmachineconfig.openshift.io/lifecycle-phase': 'Draining' }, false),
    expected: 'resume',
  },
  { state: 'never finished its join', node: node({}), expected: 'join' },
];

const FLOW: Readonly<Record<ByohAction, string>> = {
  join: 'join',
  upgrade: 'maintain',
  reboot: 'maintain',
  resume: 'maintain',
  'rotate-key': 'rotate-key',
  'check-drift': 'check-drift',
};

function recordOf(n: V1Node): NodeRecord {
  return {
    source: 'windows-instances',
    instance: IP,
    address: IP,
    nodeName: n.metadata?.name ?? '',
    username: 'Administrator',
    appliedTags: [],
    recordedAt: new Date(0).toISOString(),
  };
}

function recordingReconciler(n: V1Node | undefined): {
  reconciler: InstancesReconciler;
  did: string[];
  deps: ReturnType<typeof testDeps>;
} {
  const did: string[] = [];
  const record = <T>(what: string, value: T): Promise<T> => {
    did.push(what);
    return Promise.resolve(value);
  };
  const deps = testDeps(
    new StateHost(
      stateMatching({
        directories: [],
        files: [],
        services: [],
        envVars: {},
        routes: [],
        firewallRules: [],
        features: [],
      }),
    ),
    // The operator's record of the instance names the node (ADR 0035): the reconciler reads nodes through it.
    { records: new MemoryNodeRecords(n ? [recordOf(n)] : []), status: new MemoryStatusStore() },
  );
  const flows = {
    join: { join: () => record('join', undefined) } as unknown as JoinFlow,
    remove: { remove: () => record('remove', undefined) } as unknown as RemoveFlow,
    removeOptions: { deleteLogs: false, drainTimeoutMs: 1000 },
    rotation: { rotate: () => record('rotate-key', 'rotated') } as unknown as KeyRotation,
    upgrades: { run: () => record('maintain', undefined) } as unknown as NodeUpgrades,
    drift: {
      repair: { check: () => record('check-drift', { result: 'clean' }) } as unknown as DriftRepair,
      intervalMs: 60_000,
    },
  };
  const view = {
    instances: () => ({ [IP]: 'username=Administrator' }),
    windowsNodes: () => (n ? [n] : []),
    windowsNodesRevision: () => 1,
    node: (name: string) => (n?.metadata?.name === name ? n : undefined),
    privateKey: () => PEM,
  };
  const reconciler = new InstancesReconciler(deps, view, flows, { resolve: (a) => Promise.resolve([a]) });
  return { reconciler, did, deps };
}

for (const row of ROWS)
  test(`the BYOH reconciler and wmco plan decide alike: ${row.state}`, async (t) => {
    const plan = planByohInstance(row.node, HASH, VERSION);
    t.is(plan.action, row.expected, plan.reason);
    const { reconciler, did } = recordingReconciler(row.node);
    await reconciler.reconcile(`${ENTRY_PREFIX}${IP}`, new AbortController().signal);
    t.deepEqual(did, [FLOW[plan.action]], `plan: ${plan.action} (${plan.reason})`);
  });

test('a node of this version and key that is not Ready gets its drift check and keeps its status', async (t) => {
  for (const ready of [true, false]) {
    const { reconciler, did, deps } = recordingReconciler(node(current, ready));
    await reconciler.reconcile(`${ENTRY_PREFIX}${IP}`, new AbortController().signal);
    t.deepEqual(did, ['check-drift']);
    // A Ready node's lost status write is put right; a node that is not Ready is not called Ready.
    t.is(deps.status.get(IP)?.phase, ready ? 'Ready' : undefined, `Ready: ${String(ready)}`);
  }
});
