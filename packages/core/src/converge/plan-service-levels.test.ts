import test from 'ava';
import { applyRequestSchema, type HostState, type PlanStep } from '../host/protocol/index.js';
import { describe } from './describe-plan.js';
import type { HostSpec } from '../desired/host-spec.js';
import { plan } from './plan.js';
import { managedService, observedHost } from './plan.test-helper.js';
import { dependencyLevels } from './service-order.js';

type Service = HostSpec['services'][number];

const svc = (name: string, priority: number, dependencies: string[] = []): Service => ({
  name,
  command: `C:\\k\\${name}.exe`,
  bootstrap: priority < 2,
  priority,
  dependencies,
});

/** Upstream's node services (wmco-upstream §1.4) and Azure's cloud-node-manager. */
const NODE_SERVICES: Service[] = [
  svc('containerd', 0),
  svc('kubelet', 1, ['containerd']),
  svc('windows_exporter', 2),
  svc('hybrid-overlay-node', 2, ['kubelet']),
  svc('csi-proxy', 2),
  svc('kube-proxy', 3, ['hybrid-overlay-node']),
  svc('cloud-node-manager', 3),
];

/** The named services as the host reports them: running, configured as `NODE_SERVICES` says. */
const running = (...names: string[]): HostState['services'] =>
  NODE_SERVICES.filter((s) => names.includes(s.name)).map((s) =>
    managedService(s.name, { dependencies: [...(s.dependencies ?? [])] }),
  );

function spec(services: Service[], serviceScripts: HostSpec['serviceScripts'] = {}): HostSpec {
  return {
    directories: [],
    files: [],
    services,
    envVars: {},
    routes: [],
    firewallRules: [],
    features: [],
    serviceScripts,
  };
}

const starts = (steps: readonly PlanStep[]): string[] =>
  steps.flatMap((s) =>
    s.kind === 'startService'
      ? [s.name]
      : s.kind === 'startServices'
        ? [s.names.join('+')]
        : s.kind === 'runScript'
          ? [`script ${s.name}`]
          : [],
  );

test('the node round: services that need none of the others start together, kube-proxy after hybrid-overlay', (t) => {
  // The bootstrap round left containerd and kubelet running.
  const host = observedHost({ services: running('containerd', 'kubelet') });
  const p = plan(host, spec(NODE_SERVICES));
  t.deepEqual(starts(p.steps), [
    'csi-proxy+hybrid-overlay-node+windows_exporter+cloud-node-manager',
    'kube-proxy',
  ]);
  t.notThrows(() => applyRequestSchema.parse({ v: 1, op: 'apply', steps: p.steps }));
  t.true(
    describe(p).includes(
      'start services csi-proxy, hybrid-overlay-node, windows_exporter, cloud-node-manager together',
    ),
  );
});

test('a fresh host: one level per step of the dependency chain; a level of one is a startService', (t) => {
  const p = plan(observedHost(), spec(NODE_SERVICES));
  t.deepEqual(starts(p.steps), [
    'containerd+csi-proxy+windows_exporter+cloud-node-manager',
    'kubelet',
    'hybrid-overlay-node',
    'kube-proxy',
  ]);
  t.is(p.steps.filter((s) => s.kind === 'startServices').length, 1);
});

test("a level's pre-scripts all run before the level starts, in the level's order", (t) => {
  const host = observedHost({ services: running('containerd', 'kubelet') });
  const p = plan(
    host,
    spec(NODE_SERVICES, {
      'kube-proxy': [{ name: 'kube-proxy.0', script: 'C:\\Temp\\network-conf.ps1' }],
      windows_exporter: [{ name: 'windows_exporter.0', script: 'C:\\Temp\\exclusion.ps1' }],
      'csi-proxy': [{ name: 'csi-proxy.0', script: 'C:\\Temp\\exclusion.ps1' }],
    }),
  );
  t.deepEqual(starts(p.steps), [
    'script csi-proxy.0',
    'script windows_exporter.0',
    'csi-proxy+hybrid-overlay-node+windows_exporter+cloud-node-manager',
    'script kube-proxy.0',
    'kube-proxy',
  ]);
});

test('restarts after an upgrade keep the chain: stopped dependents start in the level after their dependency', (t) => {
  const host = observedHost({ services: running(...NODE_SERVICES.map((s) => s.name)) });
  const changed = NODE_SERVICES.map((s) =>
    s.name === 'kubelet' ? { ...s, command: `${s.command} --v=4` } : s,
  );
  t.deepEqual(starts(plan(host, spec(changed)).steps), ['kubelet', 'hybrid-overlay-node', 'kube-proxy']);
});

test('dependencyLevels: levels by the longest chain inside the set; outside dependencies and cycles do not hold back', (t) => {
  const deps: Record<string, string[]> = {
    a: [],
    b: ['a'],
    c: ['a', 'B'],
    d: ['outside'],
    x: ['y'],
    y: ['x'],
  };
  const levels = dependencyLevels(
    Object.keys(deps),
    (n) => deps[n.toLowerCase()] ?? [],
    () => 0,
  );
  t.deepEqual(levels, [['a', 'd', 'x'], ['b', 'y'], ['c']]);
  t.deepEqual(
    dependencyLevels(
      ['z', 'a'],
      () => [],
      (n) => (n === 'z' ? 0 : 1),
    ),
    [['z', 'a']],
    'priority orders a level',
  );
  t.deepEqual(
    dependencyLevels(
      [],
      () => [],
      () => 0,
    ),
    [],
  );
});

test('the protocol refuses a startServices of fewer than two services', (t) => {
  const step = (names: string[]): unknown => ({
    v: 1,
    op: 'apply',
    steps: [{ kind: 'startServices', names }],
  });
  t.throws(() => applyRequestSchema.parse(step(['a'])));
  t.throws(() => applyRequestSchema.parse(step(['a', 'b/c'])));
  t.notThrows(() => applyRequestSchema.parse(step(['a', 'b'])));
});
