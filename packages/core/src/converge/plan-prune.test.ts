import test from 'ava';
import { observedHost } from './plan.test-helper.js';
import {
  applyRequestSchema,
  isPrunablePath,
  observeRequestSchema,
  type HostState,
} from '../host/protocol/index.js';
import { observeQueryFor } from './converge.js';
import { describe } from './describe-plan.js';
import type { HostSpec } from '../desired/host-spec.js';
import { plan } from './plan.js';

const REG = 'C:\\k\\containerd\\registries';
const SHA = 'c'.repeat(64);

function state(children: Record<string, string[]> | undefined): HostState {
  return observedHost({
    directories: [REG, `${REG}\\quay.io`],
    files: [{ path: `${REG}\\quay.io\\hosts.toml`, sha256: SHA }],
    ...(children ? { children } : {}),
  });
}

const spec: HostSpec = {
  directories: [REG, `${REG}\\quay.io`],
  files: [{ path: `${REG}\\quay.io\\hosts.toml`, sha256: SHA }],
  services: [],
  envVars: {},
  routes: [],
  firewallRules: [],
  features: [],
  prunedDirectories: [REG],
};

test('sub-folders of a pruned folder that the spec does not hold are removed, the others kept', (t) => {
  const p = plan(state({ [REG]: ['QUAY.IO', 'old.example.com_5000_', 'docker.io'] }), spec);
  t.deepEqual(p.steps, [
    { kind: 'removeDirectory', path: `${REG}\\docker.io` },
    { kind: 'removeDirectory', path: `${REG}\\old.example.com_5000_` },
  ]);
  t.regex(describe(p), /remove directory C:\\k\\containerd\\registries\\docker\.io/);
});

test('nothing is pruned without a listing or without prunedDirectories', (t) => {
  t.deepEqual(plan(state(undefined), spec).steps, []);
  const { prunedDirectories: _, ...unpruned } = spec;
  t.deepEqual(plan(state({ [REG]: ['docker.io'] }), unpruned).steps, []);
});

test('observe lists the pruned folders only when the spec prunes', (t) => {
  t.deepEqual(observeQueryFor(spec).listDirectories, [REG]);
  const { prunedDirectories: _, ...unpruned } = spec;
  t.false('listDirectories' in observeQueryFor(unpruned));
});

test('the protocol removes and lists only folders directly under a prunable root', (t) => {
  t.true(isPrunablePath(`${REG}\\quay.io`));
  t.true(isPrunablePath(`c:\\K\\containerd\\REGISTRIES\\host_5000_`));
  for (const bad of [REG, 'C:\\k', `${REG}\\a\\b`, `${REG}\\..`, 'C:\\Windows\\System32', `${REG}\\a b`]) {
    t.false(isPrunablePath(bad), bad);
    const r = applyRequestSchema.safeParse({
      v: 1,
      op: 'apply',
      steps: [{ kind: 'removeDirectory', path: bad }],
    });
    t.false(r.success, bad);
  }
  const base = {
    v: 1,
    op: 'observe',
    directories: [],
    files: [],
    services: [],
    envVars: [],
    firewallRules: [],
  };
  t.true(observeRequestSchema.safeParse({ ...base, listDirectories: [REG] }).success);
  t.false(observeRequestSchema.safeParse({ ...base, listDirectories: ['C:\\k'] }).success);
});
