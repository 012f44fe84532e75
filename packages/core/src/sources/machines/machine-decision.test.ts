import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import type { CoreV1Api, CustomObjectsApi, V1Node } from '@kubernetes/client-node';
import { publicKeyHash } from '../../desired/authorized-key.js';
import { publicKeyOf } from '../../desired/public-key.js';
import { Annotations } from '../../identity/node-metadata.js';
import { MemoryEventRecorder } from '../../kube/event-recorder.js';
import { silentLogger } from '../../kube/logger.js';
import type { DriftRepair } from '../../lifecycle/drift-repair.js';
import type { JoinFlow } from '../../lifecycle/join-flow.js';
import type { NodeUpgrades } from '../../lifecycle/node-upgrades.js';
import { MachineLifecycle } from './machine-lifecycle.js';
import type { MachineResource } from './machine-object.js';
import { planMachine, type MachineAction } from './machine-plan.js';
import { MachineReconciler, nodeOfMachine } from './machine-reconciler.js';
import { windowsMachine } from './machine-object.js';
import { MemoryNodeRecords } from '../../identity/memory-node-records.js';
import type { MachinePins } from './machine-pins.js';

// Issue 26: `wmco plan` and the Machine reconciler share one decision. Each row is fed to both: the
// reconciler (with fakes recording which flow it started) and `planMachine`; both must name one action.

const PEM = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
}).privateKey;
const HASH = publicKeyHash(publicKeyOf(PEM));
const VERSION = '1.0.0';
const KEY = 'openshift-machine-api/win-1';

function machineResource(over: { phase?: string; labels?: Record<string, string> } = {}): MachineResource {
  return {
    metadata: {
      name: 'win-1',
      namespace: 'openshift-machine-api',
      uid: 'uid-1',
      labels: { 'machine.openshift.io/os-id': 'Windows', ...over.labels },
    },
    status: {
      phase: over.phase ?? 'Provisioned',
      addresses: [{ type: 'InternalIP', address: '10.0.0.8' }],
      nodeRef: { name: 'win-1' },
    },
  };
}

function node(annotations: Record<string, string>, ready = true): V1Node {
  return {
    metadata: { name: 'win-1', annotations: { [Annotations.machine]: KEY, ...annotations } },
    status: {
      // Its Machine's address: a node joined before records gets its record from this (ADR 0035).
      addresses: [{ type: 'InternalIP', address: '10.0.0.8' }],
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    },
  };
}

const current = { [Annotations.version]: VERSION, [Annotations.pubKeyHash]: HASH };
const older = { [Annotations.version]: '0.9.0', [Annotations.pubKeyHash]: HASH };

interface Row {
  readonly state: string;
  readonly machine?: MachineResource;
  readonly node?: V1Node;
  readonly key?: string;
  readonly expected: MachineAction;
}

const ROWS: readonly Row[] = [
  { state: 'provisioned, no node', expected: 'join' },
  { state: 'not provisioned yet', machine: machineResource({ phase: 'Provisioning' }), expected: 'wait' },
  {
    state: 'labelled ignore',
    machine: machineResource({ labels: { 'windowsmachineconfig.openshift.io/ignore': 'true' } }),
    expected: 'ignore',
  },
  { state: 'no private key', key: '', expected: 'wait' },
  { state: 'current and Ready', node: node(current), expected: 'check-drift' },
  { state: 'current, not Ready', node: node(current, false), expected: 'check-drift' },
  {
    state: 'another key',
    node: node({ ...current, [Annotations.pubKeyHash]: 'b'.repeat(64) }),
    expected: 'replace',
  },
  { state: 'another version, Ready', node: node(older), expected: 'upgrade' },
  { state: 'another version, not Ready', node: node(older, false), expected: 'join' },
  {
    state: 'current with a reboot request',
    node: node({ ...current, 'windowsmachineconfig.openshift.io/reboot-requested': 'x' }),
    expected: 'reboot',
  },
  {
    state: 'left mid-way, not Ready',
    node: node({ ...current, 'windowsmachineconfig.openshift.io/lifecycle-phase': 'Rebooting' }, false),
    expected: 'resume',
  },
  { state: 'joined once, no version yet', node: node({}), expected: 'join' },
];

/** A reconciler whose flows record what they were asked to do (the flow names the plan uses). */
function recordingReconciler(row: Row): {
  reconciler: MachineReconciler;
  did: string[];
  records: MemoryNodeRecords;
} {
  const did: string[] = [];
  // A row's node was joined by this operator: its record names it (a node without one would go through
  // the start-up migration, whose own checks machine-record.test covers).
  const joined = row.node
    ? [
        {
          source: 'machine' as const,
          instance: KEY,
          address: '10.0.0.8',
          nodeName: 'win-1',
          username: 'Administrator',
          appliedTags: [],
          recordedAt: '2026-01-01T00:00:00Z',
        },
      ]
    : [];
  const records = new MemoryNodeRecords(joined);
  const record = (what: string): Promise<undefined> => {
    did.push(what);
    return Promise.resolve(undefined);
  };
  const res = row.machine ?? machineResource();
  const upgrades = { run: () => record('maintain') } as unknown as NodeUpgrades;
  const repair = { check: () => record('check-drift').then(() => ({ result: 'clean' })) };
  const lifecycle = new MachineLifecycle({
    sshUser: 'Administrator',
    logger: silentLogger,
    upgrades,
    now: () => 0,
    drift: { repair: repair as unknown as DriftRepair, intervalMs: 60_000 },
  });
  const reconciler = new MachineReconciler(
    {
      core: {} as CoreV1Api,
      custom: {} as CustomObjectsApi,
      join: { join: () => record('join') } as unknown as JoinFlow,
      events: new MemoryEventRecorder(),
      logger: silentLogger,
      version: VERSION,
      sshUser: 'Administrator',
      hostRename: undefined,
      retryBudget: 3,
      records,
      pins: { seen: () => Promise.resolve() } as unknown as MachinePins,
      retryMs: 1000,
      replacements: { replace: () => record('replace') },
      status: {
        // The status of every row's Machine already says Ready, so that a current node's status is left
        // alone and only the flows show (a stale one is put right: status-successor.e2e).
        get: () => ({ address: 'machine.win-1', phase: 'Ready', since: '', phaseSeconds: {} }),
        set: () => record('status'),
        remove: () => record('status'),
        retain: () => record('status'),
      },
      lifecycle,
      now: () => 0,
    },
    {
      machine: (k) => (k === KEY ? res : undefined),
      machines: () => [res],
      windowsNodes: () => (row.node ? [row.node] : []),
      privateKey: () => (row.key ?? PEM) || undefined,
    },
  );
  return { reconciler, did, records };
}

/** The flow each action starts in the reconciler (none for the actions that leave the Machine alone). */
const FLOW: Readonly<Record<MachineAction, string | undefined>> = {
  join: 'join',
  upgrade: 'maintain',
  reboot: 'maintain',
  resume: 'maintain',
  replace: 'replace',
  'check-drift': 'check-drift',
  nothing: undefined,
  wait: undefined,
  ignore: undefined,
};

for (const row of ROWS)
  test(`the reconciler and wmco plan decide alike: ${row.state}`, async (t) => {
    const res = row.machine ?? machineResource();
    const m = windowsMachine(res);
    const key = row.key ?? PEM;
    const plan = planMachine({
      machine: m,
      node: nodeOfMachine(row.node ? [row.node] : [], m),
      publicKeyHash: key === '' ? undefined : HASH,
      version: VERSION,
      machineApi: true,
      hostname: () => undefined,
      sshUser: 'Administrator',
    });
    t.is(plan.action, row.expected, plan.reason);
    const { reconciler, did } = recordingReconciler(row);
    await reconciler.reconcile(KEY, new AbortController().signal);
    const expected = FLOW[plan.action];
    t.deepEqual(did, expected === undefined ? [] : [expected], `plan: ${plan.action} (${plan.reason})`);
  });

test('a Machine gone from the API loses its status and a record a join wrote after the delete event', async (t) => {
  const { reconciler, did, records } = recordingReconciler({ state: 'gone', expected: 'nothing' });
  const gone = 'openshift-machine-api/win-2';
  await records.put({
    source: 'machine',
    instance: gone,
    address: '10.0.0.9',
    nodeName: 'win-2',
    username: 'Administrator',
    appliedTags: [],
    recordedAt: '2026-01-01T00:00:00Z',
  });
  await reconciler.reconcile(gone, new AbortController().signal);
  t.is(records.get('machine', gone), undefined, 'its record is forgotten');
  t.deepEqual(did, ['status'], 'its status is removed');
});
