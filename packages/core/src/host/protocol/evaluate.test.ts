import test from 'ava';
import { EVALUATE_MAX, EVALUATE_SCRIPT_MAX } from './evaluate.js';
import { hostStateSchema } from './host-state.js';
import { observeRequestSchema } from './request.js';

const base = {
  v: 1,
  op: 'observe',
  directories: [],
  files: [],
  services: [],
  envVars: [],
  firewallRules: [],
};
const observe = (evaluate: unknown): ReturnType<typeof observeRequestSchema.safeParse> =>
  observeRequestSchema.safeParse({ ...base, evaluate });
const issue = (r: ReturnType<typeof observe>): string => (r.success ? '' : r.error.message);

test('evaluate is optional: a request without it is still a version 1 observe', (t) => {
  const r = observeRequestSchema.safeParse(base);
  t.true(r.success);
  t.false(r.success && 'evaluate' in r.data);
});

test('evaluate accepts variable names and ids with one-line scripts', (t) => {
  const r = observe([
    { name: 'NODE_IP', script: "(Get-NetRoute -DestinationPrefix '0.0.0.0/0').NextHop" },
    { name: 'kube-proxy.0', script: 'C:\\Temp\\network-conf.ps1 -verbosity 0' },
  ]);
  t.true(r.success, issue(r));
});

test('evaluate refuses line breaks, NUL, empty and over-long scripts', (t) => {
  for (const script of ['a\nb', 'a\r\nb', 'a\0b', '', 'x'.repeat(EVALUATE_SCRIPT_MAX + 1)]) {
    const r = observe([{ name: 'X', script }]);
    t.false(r.success, JSON.stringify(script.slice(0, 20)));
  }
  t.regex(issue(observe([{ name: 'X', script: 'a\nb' }])), /one line/);
  t.true(observe([{ name: 'X', script: 'x'.repeat(EVALUATE_SCRIPT_MAX) }]).success);
});

test('evaluate refuses bad and duplicate names and too many scripts', (t) => {
  for (const name of ['', '1X', 'A B', 'A;B', '$x', 'a'.repeat(65)]) {
    t.false(observe([{ name, script: 'hostname' }]).success, name);
  }
  t.regex(
    issue(
      observe([
        { name: 'NODE_IP', script: 'a' },
        { name: 'node_ip', script: 'b' },
      ]),
    ),
    /unique/,
  );
  const many = Array.from({ length: EVALUATE_MAX + 1 }, (_, i) => ({ name: `s${i}`, script: 'hostname' }));
  t.false(observe(many).success);
  t.true(observe(many.slice(1)).success);
});

const state = {
  v: 1,
  hostname: 'WIN-1',
  os: { build: 20348, ubr: 1 },
  containersFeature: true,
  lastBootTime: '2026-01-01T00:00:00.000Z',
  bootId: '3f2c1e0a-0000-4000-8000-000000000001',
  freeDiskBytes: 1,
  defaultShell: 'cmd',
  directories: [],
  files: [],
  staged: [],
  services: [],
  envVars: {},
  routes: [],
  hnsNetworks: [],
  firewallRules: [],
};

test('HostState.evaluated holds ok results and errors, and is {} when absent', (t) => {
  const parsed = hostStateSchema.parse(state);
  t.deepEqual(parsed.evaluated, {});
  const evaluated = { NODE_IP: { ok: true, output: '10.0.0.10' }, x: { ok: false, error: 'boom' } };
  t.deepEqual(hostStateSchema.parse({ ...state, evaluated }).evaluated, evaluated);
  t.false(hostStateSchema.safeParse({ ...state, evaluated: { X: { ok: true } } }).success);
  t.false(hostStateSchema.safeParse({ ...state, evaluated: { X: { ok: false, output: '' } } }).success);
});
