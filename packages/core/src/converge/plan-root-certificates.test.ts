import test from 'ava';
import { observedHost } from './plan.test-helper.js';
import { applyRequestSchema, observeRequestSchema, type HostState } from '../host/protocol/index.js';
import { observeQueryFor } from './converge.js';
import { describe } from './describe-plan.js';
import type { HostSpec } from '../desired/host-spec.js';
import { plan } from './plan.js';

const A = 'A'.repeat(40);
const B = 'B'.repeat(40);
const C = 'C'.repeat(40);
const BUNDLE = 'C:\\k\\ca-bundle.crt';

function state(rootCertificates?: HostState['rootCertificates']): HostState {
  return observedHost({ ...(rootCertificates ? { rootCertificates } : {}) });
}

const base: HostSpec = {
  directories: [],
  files: [],
  services: [],
  envVars: {},
  routes: [],
  firewallRules: [],
  features: [],
};
const spec = (thumbprints: string[]): HostSpec => ({
  ...base,
  rootCertificates: { bundle: BUNDLE, thumbprints },
});

test('missing certificates are imported from the bundle in one step', (t) => {
  t.deepEqual(plan(state([]), spec([B, A])).steps, [
    { kind: 'importRootCertificates', path: BUNDLE, thumbprints: [A, B] },
  ]);
});

test('a certificate already in the store, marked or not, is not imported again', (t) => {
  const s = state([
    { thumbprint: A, managed: false },
    { thumbprint: B, managed: true },
  ]);
  t.deepEqual(plan(s, spec([A, B])).steps, []);
});

test('only the operator’s certificates that left the bundle are removed', (t) => {
  const s = state([
    { thumbprint: A, managed: true },
    { thumbprint: B, managed: true },
    { thumbprint: C, managed: false },
  ]);
  t.deepEqual(plan(s, spec([A])).steps, [{ kind: 'removeRootCertificate', thumbprint: B }]);
  t.regex(describe(plan(s, spec([A]))), /remove certificate B{40} from the machine Root store/);
});

test('without rootCertificates in the spec the store is neither asked about nor touched', (t) => {
  t.deepEqual(plan(state([{ thumbprint: A, managed: true }]), base).steps, []);
  t.false('rootCertificates' in observeQueryFor(base));
  t.deepEqual(observeQueryFor(spec([A])).rootCertificates, [A]);
});

test('the protocol takes only upper-case SHA-1 thumbprints and a non-empty import', (t) => {
  const ok = { v: 1, op: 'apply', steps: [{ kind: 'removeRootCertificate', thumbprint: A }] };
  t.true(applyRequestSchema.safeParse(ok).success);
  const lower = { ...ok, steps: [{ kind: 'removeRootCertificate', thumbprint: 'a'.repeat(40) }] };
  t.false(applyRequestSchema.safeParse(lower).success);
  const empty = { ...ok, steps: [{ kind: 'importRootCertificates', path: BUNDLE, thumbprints: [] }] };
  t.false(applyRequestSchema.safeParse(empty).success);
  const observe = { v: 1, op: 'observe', directories: [], files: [], services: [], envVars: [] };
  t.false(observeRequestSchema.safeParse({ ...observe, firewallRules: [], rootCertificates: ['x'] }).success);
});
