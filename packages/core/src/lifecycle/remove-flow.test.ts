import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import { Annotations } from '../identity/node-metadata.js';
import { encryptUsername } from '../identity/username-crypto.js';
import { NodeNotOwnedError } from '../identity/node-ownership.js';
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

// A Linux worker someone labelled as a BYOH node: it has no instance-address annotation.
const linux: V1Node = {
  metadata: { name: 'worker-0', labels: { 'windowsmachineconfig.openshift.io/byoh': 'true' } },
  status: { addresses: [{ type: 'InternalIP', address: '10.0.0.9' }] },
};
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

test('removal never cordons, drains, deconfigures or deletes a Node this operator did not join', async (t) => {
  const { core, calls } = recordingCore();
  const host = emptyHost();
  const deps = testDeps(host, { core });
  const flow = new RemoveFlow(deps);
  const signal = new AbortController().signal;
  await t.throwsAsync(flow.remove(linux, 'key', { deleteLogs: false, drainTimeoutMs: 1000, signal }), {
    instanceOf: NodeNotOwnedError,
    message: 'will not remove node worker-0: it was not joined by this operator',
  });
  t.deepEqual(calls, [], 'no API call');
  t.is(host.queries.length, 0, 'no SSH call');
});

test('key rotation never re-keys a Node that belongs to another instance', async (t) => {
  const { core, calls } = recordingCore();
  const host = emptyHost();
  const rotation = new KeyRotation(testDeps(host, { core }));
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
  const node = testNode();
  node.metadata = {
    ...node.metadata,
    annotations: {
      ...node.metadata?.annotations,
      [Annotations.username]: encryptUsername('Administrator', key),
    },
  };
  await t.throwsAsync(
    new RemoveFlow(deps).remove(node, key, { deleteLogs: false, drainTimeoutMs: 1000, signal: stop.signal }),
    { message: /connecting was abandoned/ },
  );
  t.deepEqual(signals, [stop.signal]);
  t.deepEqual(phases, ['Removing'], 'no Failed phase');
  t.deepEqual(base.events.events, [], 'no InstanceTeardownFailure event');
});
