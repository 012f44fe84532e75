import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { MemoryNodeRecords } from '../../identity/memory-node-records.js';
import { RecordMismatchReporter } from '../../lifecycle/record-mismatch-reporter.js';
import { MemoryEventRecorder } from '../../kube/event-recorder.js';
import { silentLogger } from '../../kube/logger.js';
import { encryptUsername } from '../../identity/username-crypto.js';
import { machineNode } from './machine-record.js';
import type { WindowsMachine } from './machine-object.js';

const M: WindowsMachine = {
  name: 'win-0',
  namespace: 'openshift-machine-api',
  uid: 'u0',
  ipv4: '10.0.1.5',
  phase: 'Provisioned',
  nodeRef: 'win-0',
  deleting: false,
  ignored: false,
  windows: true,
  machineSet: undefined,
};

const rsa = (): string =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
const KEY = rsa();
const USERNAME = 'windowsmachineconfig.openshift.io/username';

function node(
  name: string,
  machine: string | undefined,
  ip: string,
  o: { user?: string; key?: string; addresses?: { type: string; address: string }[] } = {},
): V1Node {
  const username = encryptUsername(o.user ?? 'Administrator', o.key ?? KEY);
  return {
    metadata: {
      name,
      annotations: machine
        ? { 'windowsmachineconfig.openshift.io/machine': machine, [USERNAME]: username }
        : {},
    },
    status: { addresses: [{ type: 'InternalIP', address: ip }, ...(o.addresses ?? [])] },
  };
}

function deps(records = new MemoryNodeRecords()) {
  const events = new MemoryEventRecorder();
  const status = {
    get: () => undefined,
    set: () => Promise.resolve(),
    remove: () => Promise.resolve(),
    retain: () => Promise.resolve(),
  };
  const reporter = new RecordMismatchReporter({ events, logger: silentLogger, status });
  return { records, events, reporter, sshUser: 'Administrator' };
}

test('a claimed Machine node joined before records gets its record when its address is the Machine’s', async (t) => {
  const d = deps();
  const own = node('win-0', 'openshift-machine-api/win-0', '10.0.1.5');
  const found = await machineNode(d, [own], M, { candidate: own, privateKeyPem: KEY });
  t.deepEqual(found, { kind: 'node', node: own });
  t.like(d.records.get('machine', 'openshift-machine-api/win-0'), {
    nodeName: 'win-0',
    address: '10.0.1.5',
    migrated: true,
  });
});

test('no record, and nothing done, for a Machine node at another address or with a second claimant', async (t) => {
  const elsewhere = deps();
  const moved = node('win-0', 'openshift-machine-api/win-0', '10.0.1.9');
  t.deepEqual(await machineNode(elsewhere, [moved], M, { candidate: moved, privateKeyPem: KEY }), {
    kind: 'refused',
  });
  t.regex(elsewhere.events.events[0]?.message ?? '', /InternalIP 10\.0\.1\.9 is not 10\.0\.1\.5/);
  const twice = deps();
  const own = node('win-0', 'openshift-machine-api/win-0', '10.0.1.5');
  const hostile = node('win-x', 'openshift-machine-api/win-0', '10.0.1.7');
  t.deepEqual(await machineNode(twice, [own, hostile], M, { candidate: own, privateKeyPem: KEY }), {
    kind: 'refused',
  });
  t.regex(twice.events.events[0]?.message ?? '', /win-x claim the same Machine/);
  t.deepEqual(twice.records.all(), []);
});

test('with a record, the recorded Node is the Machine’s; one that contradicts it is reported and refused', async (t) => {
  const record = {
    source: 'machine' as const,
    instance: 'openshift-machine-api/win-0',
    address: '10.0.1.5',
    nodeName: 'win-0',
    username: 'Administrator',
    appliedTags: [],
    recordedAt: '2026-01-01T00:00:00Z',
  };
  const d = deps(new MemoryNodeRecords([record]));
  const own = node('win-0', 'openshift-machine-api/win-0', '10.0.1.5');
  // Another node claims the Machine first in the list: the record, not the annotation, decides.
  const hostile = node('win-x', 'openshift-machine-api/win-0', '10.0.1.5');
  t.deepEqual(await machineNode(d, [hostile, own], M, { candidate: hostile, privateKeyPem: KEY }), {
    kind: 'node',
    node: own,
  });
  const lying = node('win-0', 'openshift-machine-api/win-0', '10.0.1.7');
  t.deepEqual(await machineNode(d, [lying], M, { candidate: lying, privateKeyPem: KEY }), {
    kind: 'refused',
  });
  t.is(d.events.events[0]?.reason, 'NodeRecordMismatch');
});

test('no record for a Machine node whose address another Node lists, under any address type or label', async (t) => {
  const d = deps();
  const own = node('win-0', 'openshift-machine-api/win-0', '10.0.1.5');
  // Not a Machine node, and the address only as its second InternalIP and as an ExternalIP.
  const other = node('byoh-x', undefined, '10.0.9.9', {
    addresses: [
      { type: 'InternalIP', address: '10.0.1.5' },
      { type: 'ExternalIP', address: '10.0.1.5' },
    ],
  });
  t.deepEqual(await machineNode(d, [own, other], M, { candidate: own, privateKeyPem: KEY }), {
    kind: 'refused',
  });
  t.deepEqual(d.records.all(), []);
  t.is(d.events.events[0]?.reason, 'NodeRecordNotMigrated');
  t.is(d.events.events[0]?.object.name, 'win-0');
  t.regex(d.events.events[0]?.message ?? '', /byoh-x claim the same Machine or address/);
});

test('no record for a Machine node whose username annotation does not decrypt with the operator’s key', async (t) => {
  const d = deps();
  const forged = node('win-0', 'openshift-machine-api/win-0', '10.0.1.5', { key: rsa() });
  t.deepEqual(await machineNode(d, [forged], M, { candidate: forged, privateKeyPem: KEY }), {
    kind: 'refused',
  });
  t.deepEqual(d.records.all(), []);
  t.is(d.events.events[0]?.object.name, 'win-0');
  t.regex(d.events.events[0]?.message ?? '', /does not decrypt with the operator’s key/);
});

test('no record for a Machine node whose username annotation names another user than the Machine user', async (t) => {
  const d = deps();
  const copied = node('win-0', 'openshift-machine-api/win-0', '10.0.1.5', { user: 'wmco-byoh' });
  t.deepEqual(await machineNode(d, [copied], M, { candidate: copied, privateKeyPem: KEY }), {
    kind: 'refused',
  });
  t.deepEqual(d.records.all(), []);
  t.regex(d.events.events[0]?.message ?? '', /names another user than the platform's Machine user/);
});

test('without the private key nothing is migrated yet; a claimed node never annotated is joined again', async (t) => {
  const d = deps();
  const own = node('win-0', 'openshift-machine-api/win-0', '10.0.1.5');
  t.deepEqual(await machineNode(d, [own], M, { candidate: own }), { kind: 'refused' });
  t.deepEqual(d.records.all(), []);
  t.deepEqual(d.events.events, [], 'nothing to report: retried once the key exists');
  const claimedOnly: V1Node = {
    metadata: {
      name: 'win-0',
      annotations: { 'windowsmachineconfig.openshift.io/machine': 'openshift-machine-api/win-0' },
    },
    status: { addresses: [{ type: 'InternalIP', address: '10.0.1.5' }] },
  };
  t.deepEqual(await machineNode(d, [claimedOnly], M, { candidate: claimedOnly, privateKeyPem: KEY }), {
    kind: 'node',
    node: undefined,
  });
  t.deepEqual(d.records.all(), [], 'no record is made from the Node');
});
