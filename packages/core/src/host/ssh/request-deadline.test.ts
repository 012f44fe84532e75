import test from 'ava';
import { HOST_PROTOCOL_VERSION, type HostRequest } from '../protocol/index.js';
import { requestDeadline } from './request-deadline.js';

const o = {
  quickCommandTimeoutMs: 60_000,
  applyStepTimeoutMs: 30_000,
  serviceStepTimeoutMs: 180_000,
  commandTimeoutMs: 900_000,
};
const v = HOST_PROTOCOL_VERSION;
const apply = (steps: Extract<HostRequest, { op: 'apply' }>['steps']): HostRequest => ({
  v,
  op: 'apply',
  steps,
});

test('observe and reboot get the quick deadline', (t) => {
  t.is(requestDeadline(o, { v, op: 'reboot' }), 60_000);
  const observe = {
    v,
    op: 'observe',
    directories: [],
    files: [],
    services: [],
    envVars: [],
    firewallRules: [],
  };
  t.is(requestDeadline(o, observe as HostRequest), 60_000);
});

test('an apply gets the quick deadline plus each step: a write, a service start, a script', (t) => {
  t.is(requestDeadline(o, apply([{ kind: 'createDirectory', path: 'C:\\k' }])), 90_000);
  t.is(
    requestDeadline(
      o,
      apply([
        { kind: 'setEnvVar', name: 'A', value: '1' },
        { kind: 'startService', name: 'kubelet' },
        { kind: 'startServices', names: ['a', 'b'] },
      ]),
    ),
    60_000 + 30_000 + 3 * 180_000,
  );
});

test('a feature install, or many steps, reach the longest deadline and no further', (t) => {
  t.is(requestDeadline(o, apply([{ kind: 'installFeature', name: 'Containers' }])), 900_000);
  const many = Array.from({ length: 10 }, (_, i) => ({ kind: 'startService' as const, name: `s${i}` }));
  t.is(requestDeadline(o, apply(many)), 900_000);
});

test('a deconfigure is sized by its services, networks, folders and variables', (t) => {
  const request: HostRequest = {
    v,
    op: 'deconfigure',
    services: ['kubelet', 'kube-proxy'],
    removeTaggedServices: false,
    envVars: ['A'],
    hnsNetworks: ['OVNKubernetesHybridOverlayNetwork'],
    directories: ['C:\\k'],
    keep: [],
  };
  t.is(requestDeadline(o, request), 60_000 + 3 * 180_000 + 2 * 30_000);
});
