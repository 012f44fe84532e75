import test from 'ava';
import type { InstanceStatus } from './instance-status.js';
import { operatorConditions, refusedStartConditions, withTransitions } from './operator-conditions.js';

const at = (address: string, phase: InstanceStatus['phase'], machine?: string): InstanceStatus => ({
  address,
  phase,
  since: '2026-11-27T00:00:00.000Z',
  phaseSeconds: {},
  ...(machine ? { machine } : {}),
});
const usable = { state: 'usable' } as const;
const byType = (cs: readonly { type: string; status: string; reason: string }[]): Record<string, string> =>
  Object.fromEntries(cs.map((c) => [c.type, `${c.status}/${c.reason}`]));

test('all well: Available, not Progressing, not Degraded, key ready, cluster supported', (t) => {
  const cs = operatorConditions({
    privateKey: usable,
    clusterProblems: [],
    instances: [at('10.0.0.1', 'Ready')],
  });
  t.deepEqual(byType(cs), {
    Available: 'True/AsExpected',
    Progressing: 'False/AsExpected',
    Degraded: 'False/AsExpected',
    PrivateKeyReady: 'True/AsExpected',
    ClusterSupported: 'True/AsExpected',
  });
});

test('a Failed instance degrades the operator and is named; one joining makes it Progressing', (t) => {
  const cs = operatorConditions({
    privateKey: usable,
    clusterProblems: [],
    instances: [at('10.0.0.1', 'Failed'), at('machine.w-1', 'Configuring', 'w-1'), at('10.0.0.3', 'Ready')],
  });
  const c = Object.fromEntries(cs.map((x) => [x.type, x]));
  t.is(c['Degraded']?.status, 'True');
  t.is(c['Degraded']?.reason, 'InstancesFailed');
  t.regex(c['Degraded']?.message ?? '', /1 instance\(s\) failed: 10\.0\.0\.1/);
  t.is(c['Progressing']?.status, 'True');
  t.regex(c['Progressing']?.message ?? '', /Machine w-1 \(Configuring\)/);
  t.is(c['Available']?.status, 'True', 'the operator itself works');
});

test('a missing or unusable key makes the operator unavailable and degraded, with the reason', (t) => {
  const missing = operatorConditions({
    privateKey: { state: 'missing', secret: 'cloud-private-key' },
    clusterProblems: [],
    instances: [],
  });
  t.like(byType(missing), {
    Available: 'False/PrivateKeyMissing',
    Degraded: 'True/PrivateKeyMissing',
    PrivateKeyReady: 'False/PrivateKeyMissing',
  });
  const bad = operatorConditions({
    privateKey: { state: 'unusable', secret: 'cloud-private-key', problem: 'a public key' },
    clusterProblems: [],
    instances: [],
  });
  t.regex(bad.find((c) => c.type === 'PrivateKeyReady')?.message ?? '', /cannot be used: a public key/);
});

test('an unsupported cluster comes first and names every problem', (t) => {
  const cs = operatorConditions({
    privateKey: { state: 'missing', secret: 's' },
    clusterProblems: ['Kubernetes v1.20.0 is not supported', 'no hybrid'],
    instances: [],
  });
  t.like(byType(cs), {
    Available: 'False/ClusterNotSupported',
    ClusterSupported: 'False/ClusterNotSupported',
  });
  t.regex(cs[0]?.message ?? '', /v1\.20\.0 is not supported; no hybrid/);
  t.deepEqual(byType(refusedStartConditions(['x'])), {
    Available: 'False/ClusterNotSupported',
    Degraded: 'True/ClusterNotSupported',
    ClusterSupported: 'False/ClusterNotSupported',
  });
});

test('a transition time changes only with the status', (t) => {
  const t0 = new Date('2026-11-27T00:00:00Z');
  const t1 = new Date('2026-11-27T01:00:00Z');
  const first = withTransitions([], [{ type: 'Degraded', status: 'True', reason: 'A', message: 'a' }], t0);
  const sameStatus = withTransitions(
    first,
    [{ type: 'Degraded', status: 'True', reason: 'B', message: 'b' }],
    t1,
  );
  t.is(sameStatus[0]?.lastTransitionTime, t0.toISOString());
  const flipped = withTransitions(
    first,
    [{ type: 'Degraded', status: 'False', reason: 'C', message: 'c' }],
    t1,
  );
  t.is(flipped[0]?.lastTransitionTime, t1.toISOString());
});
