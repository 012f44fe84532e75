import test from 'ava';
import { observedHost } from './plan.test-helper.js';
import { applyRequestSchema, observeRequestSchema } from '../host/protocol/index.js';
import { observeQueryFor } from './converge.js';
import { describeStep } from './describe-plan.js';
import type { HostSpec } from '../desired/host-spec.js';
import { buildHostSpec } from '../desired/host-spec-builder.js';
import { plan } from './plan.js';

const base: HostSpec = {
  directories: [],
  files: [],
  services: [],
  envVars: {},
  routes: [],
  firewallRules: [],
  features: [],
};
const kept: HostSpec = { ...base, keptClientCertificates: 2 };
const cert = (time: string): string => `ovnkube-client-${time}.pem`;

test('every node spec keeps two hybrid-overlay client certificates, and its observe asks for them', (t) => {
  const spec = buildHostSpec({ payload: [], generated: [], services: [], envVars: {}, routes: [] });
  t.is(spec.keptClientCertificates, 2);
  const query = observeQueryFor(spec);
  t.true(query.clientCertificates);
  t.true(observeRequestSchema.safeParse({ v: 1, op: 'observe', ...query }).success);
  t.is(observeQueryFor(base).clientCertificates, undefined);
});

test('all but the two lexicographically newest certificates go, whatever order observe lists them in', (t) => {
  const names = [
    cert('2026-11-26-10-00-00'),
    cert('current'),
    cert('2026-11-24-10-00-00'),
    cert('2026-11-27-10-00-00'),
    cert('2026-11-25-10-00-00'),
  ];
  const steps = plan(observedHost({ clientCertificates: names }), kept).steps;
  t.deepEqual(steps, [
    { kind: 'removeClientCertificate', name: cert('2026-11-24-10-00-00') },
    { kind: 'removeClientCertificate', name: cert('2026-11-25-10-00-00') },
    { kind: 'removeClientCertificate', name: cert('2026-11-26-10-00-00') },
  ]);
  t.true(applyRequestSchema.safeParse({ v: 1, op: 'apply', steps }).success);
  t.is(
    describeStep(steps[0]!),
    `remove old hybrid-overlay client certificate C:\\k\\cni\\config\\${cert('2026-11-24-10-00-00')}`,
  );
});

test('the order is byte-wise, as Go sorts: upper case before lower case, digits before letters', (t) => {
  const names = [cert('b'), cert('B'), cert('9'), cert('a')];
  const steps = plan(observedHost({ clientCertificates: names }), kept).steps;
  t.deepEqual(
    steps.map((s) => (s.kind === 'removeClientCertificate' ? s.name : s.kind)),
    [cert('9'), cert('B')],
  );
});

test('two or fewer certificates, none listed, or a spec that keeps them all: nothing to remove', (t) => {
  const two = [cert('2026-11-26-10-00-00'), cert('current')];
  t.deepEqual(plan(observedHost({ clientCertificates: two }), kept).steps, []);
  t.deepEqual(plan(observedHost({ clientCertificates: [] }), kept).steps, []);
  t.deepEqual(plan(observedHost(), kept).steps, []);
  const many = [cert('1'), cert('2'), cert('3')];
  t.deepEqual(plan(observedHost({ clientCertificates: many }), base).steps, []);
});

test('a name that is not a client certificate is refused by the step schema', (t) => {
  for (const name of ['cni.conf', '..\\cni.conf', 'ovnkube-client-.pem', 'ovnkube-client-a\\b.pem']) {
    const parsed = applyRequestSchema.safeParse({
      v: 1,
      op: 'apply',
      steps: [{ kind: 'removeClientCertificate', name }],
    });
    t.false(parsed.success, name);
  }
});
