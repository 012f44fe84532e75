import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import type { CoreV1Api } from '@kubernetes/client-node';
import type { MemoryNodeRecords } from '../identity/memory-node-records.js';
import type { NodeRecord } from '../identity/node-record.js';
import type { HostTarget } from './join-deps.js';
import type { WindowsHost } from '../host/windows-host.js';
import { StateHost, stateMatching, testDeps, testNode } from './lifecycle.test-helper.js';
import { KeyRotation } from './key-rotation.js';
import { RemoveFlow } from './remove-flow.js';

function recordingCore(): { core: CoreV1Api; calls: string[] } {
  const calls: string[] = [];
  const core = new Proxy(
    {},
    {
      get: (_t, method: string) => () => {
        calls.push(method);
        return Promise.resolve({});
      },
    },
  ) as CoreV1Api;
  return { core, calls };
}

// The operator's record of the instance at 10.0.0.5, joined as win-a by Administrator.
const record = (extra: Partial<NodeRecord> = {}): NodeRecord => ({
  source: 'windows-instances',
  instance: '10.0.0.5',
  address: '10.0.0.5',
  nodeName: 'win-a',
  username: 'Administrator',
  appliedTags: [],
  recordedAt: '2026-01-01T00:00:00Z',
  ...extra,
});
const emptyHost = (): StateHost =>
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
  );

test('removal never cordons, drains, deconfigures or deletes a Node that contradicts the record', async (t) => {
  const { core, calls } = recordingCore();
  const host = emptyHost();
  const deps = testDeps(host, { core });
  const flow = new RemoveFlow(deps);
  const signal = new AbortController().signal;
  // win-a says it is at another host's address: the record, not the Node, says where win-a's host is.
  const node = testNode('win-a', '10.0.0.9');
  await t.throwsAsync(
    flow.remove({ record: record(), node }, 'key', { deleteLogs: false, drainTimeoutMs: 1000, signal }),
    {
      message: /will not remove node win-a: it contradicts the operator's record/,
    },
  );
  t.deepEqual(calls, [], 'no API call');
  t.is(host.queries.length, 0, 'no SSH call');
});

test('removal connects to the recorded address as the recorded user, whatever the Node says', async (t) => {
  const core = new Proxy({}, { get: () => () => Promise.resolve({ items: [] }) }) as CoreV1Api;
  const targets: HostTarget[] = [];
  const base = emptyHost();
  const host: WindowsHost = {
    address: base.address,
    observe: (q) => base.observe(q),
    upload: (f) => base.upload(f),
    apply: (p) => base.apply(p),
    reboot: () => base.reboot(),
    deconfigure: () => Promise.resolve({ done: [], rebootRequired: false }),
    close: () => Promise.resolve(),
  };
  const deps = { ...testDeps(host, { core }), openHost: (to: HostTarget) => (targets.push(to), host) };
  const signal = new AbortController().signal;
  await new RemoveFlow(deps).remove({ record: record({ username: 'wmco' }), node: undefined }, 'key', {
    deleteLogs: false,
    drainTimeoutMs: 1000,
    signal,
  });
  t.deepEqual(
    targets.map((x) => [x.ipv4, x.username]),
    [['10.0.0.5', 'wmco']],
  );
  t.deepEqual(
    (deps.records as MemoryNodeRecords).writes,
    ['remove windows-instances 10.0.0.5'],
    'record forgotten',
  );
});

test('key rotation never re-keys a Node that belongs to another instance', async (t) => {
  const { core, calls } = recordingCore();
  const host = emptyHost();
  // A re-key needs only the API and the host (KeyRotationDeps), not the whole JoinDeps bag.
  const rotation = new KeyRotation({ core, openHost: () => host });
  const instance = { address: '10.0.0.6', ipv4Address: '10.0.0.6', username: 'Administrator' };
  await t.throwsAsync(rotation.rotate(testNode('win-a', '10.0.0.5'), instance, 'key', 'hash'), {
    message: 'will not re-key node win-a for instance 10.0.0.6: it belongs to instance 10.0.0.5',
  });
  t.deepEqual(calls, []);
  t.is(host.queries.length, 0);
});

test('a removal stopped mid-way is not a failure: its connection gets the signal, no Failed status, no event', async (t) => {
  // Every call answers; lists are empty (no pods to drain).
  const core = new Proxy({}, { get: () => () => Promise.resolve({ items: [] }) }) as CoreV1Api;
  const stop = new AbortController();
  const phases: string[] = [];
  const base = testDeps(emptyHost(), { core });
  const signals: (AbortSignal | undefined)[] = [];
  const deps = {
    ...base,
    status: {
      ...base.status,
      set: (status: { phase: string }) => {
        phases.push(status.phase);
        return Promise.resolve();
      },
    },
    openHost: (to: Parameters<typeof base.openHost>[0]) => {
      signals.push(to.signal);
      // The operator stops while the host is being reached: connecting is abandoned.
      stop.abort();
      throw new Error('connecting was abandoned: the work it was for was stopped');
    },
  };
  const key = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
  await t.throwsAsync(
    new RemoveFlow(deps).remove({ record: record(), node: testNode() }, key, {
      deleteLogs: false,
      drainTimeoutMs: 1000,
      signal: stop.signal,
    }),
    { message: /connecting was abandoned/ },
  );
  t.deepEqual(signals, [stop.signal]);
  t.deepEqual(phases, ['Removing'], 'no Failed phase');
  t.deepEqual(base.events.events, [], 'no InstanceTeardownFailure event');
});
