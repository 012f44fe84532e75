import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import type { InstanceStatus } from '../lifecycle/instance-status.js';
import type { OperatorStatus } from '../lifecycle/operator-conditions.js';
import { silentLogger } from '../kube/logger.js';
import { OperatorStatusReporter, type OperatorStatusStore } from './operator-status-reporter.js';

/** An in-memory store: the instance statuses, the sections written, and the change listeners. */
function fakeStore(): OperatorStatusStore & {
  statuses: InstanceStatus[];
  written: OperatorStatus[];
  change(): void;
} {
  const listeners: (() => void)[] = [];
  const store = {
    statuses: [] as InstanceStatus[],
    written: [] as OperatorStatus[],
    onChange: (l: () => void) => void listeners.push(l),
    all: () => store.statuses,
    setOperator: (section: object) => {
      store.written.push(section as OperatorStatus);
      return Promise.resolve();
    },
    loadedOperatorConditions: () => [],
    change: () => listeners.forEach((l) => l()),
  };
  return store;
}

const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const status = (s: readonly { type: string; status: string }[], type: string): string | undefined =>
  s.find((c) => c.type === type)?.status;

async function settled(r: OperatorStatusReporter): Promise<void> {
  // The reporter's work is promise-driven: wait until what it queued has run.
  for (let i = 0; i < 20; i++) await new Promise((done) => setImmediate(done));
  await r.stop();
}

test('writes at start, then only when the conditions change; the key is read when told', async (t) => {
  const store = fakeStore();
  const secret: { pem?: string } = {};
  const r = new OperatorStatusReporter({
    store,
    version: '1.0.0',
    logger: silentLogger,
    privateKeySecret: 'cloud-private-key',
    privateKey: () => secret.pem,
    clusterProblems: () => Promise.resolve([]),
    minIntervalMs: 0,
  });
  await r.start();
  t.is(store.written.length, 1);
  t.is(status(store.written[0]!.conditions, 'PrivateKeyReady'), 'False');
  t.is(store.written[0]!.version, '1.0.0');
  store.change(); // nothing the conditions depend on changed
  secret.pem = pem;
  r.update(); // the Secret changed
  store.statuses = [{ address: '10.0.0.1', phase: 'Failed', since: 'x', phaseSeconds: {} }];
  store.change();
  await settled(r);
  const last = store.written.at(-1)!;
  t.is(status(last.conditions, 'PrivateKeyReady'), 'True');
  t.is(status(last.conditions, 'Degraded'), 'True');
  t.true(store.written.length <= 3, 'coalesced, and an unchanged state is not written again');
});

test('changes within the least interval are not written before it ends', async (t) => {
  const store = fakeStore();
  const r = new OperatorStatusReporter({
    store,
    version: '1',
    logger: silentLogger,
    privateKeySecret: 's',
    privateKey: () => pem,
    clusterProblems: () => Promise.resolve(['Kubernetes v1.20 is not supported']),
    minIntervalMs: 60_000,
  });
  await r.start();
  t.is(status(store.written[0]!.conditions, 'ClusterSupported'), 'False');
  // Progressing from now on: a change the next write must carry, but not before the interval ends.
  store.statuses = [{ address: '10.0.0.1', phase: 'Configuring', since: 'x', phaseSeconds: {} }];
  store.change();
  await settled(r); // the stop ends the wait: nothing more is written after a stop
  t.is(store.written.length, 1);
});
