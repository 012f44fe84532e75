import test from 'ava';
import { observedHost } from './plan.test-helper.js';
import type { HostSpec } from '../desired/host-spec.js';
import type { PlanStep } from '../host/protocol/index.js';
import { withFilesBeforeTheirStart } from './file-placement-order.js';
import { plan } from './plan.js';

const sha = (c: string): string => c.repeat(64);

/** containerd (level 1), the kubelet (level 2, with kube-log-runner), kube-proxy (level 3, a pre-script). */
function spec(over: Partial<HostSpec> = {}): HostSpec {
  return {
    directories: ['C:\\k'],
    files: [
      { path: 'C:\\k\\containerd.exe', sha256: sha('a') },
      { path: 'C:\\k\\kubelet.exe', sha256: sha('b') },
      { path: 'C:\\k\\kube-log-runner.exe', sha256: sha('c') },
      { path: 'C:\\k\\kube-proxy.exe', sha256: sha('d') },
      { path: 'C:\\k\\cni\\win-overlay.exe', sha256: sha('e') },
      { path: 'C:\\k\\kubelet.conf', sha256: sha('f') },
    ],
    services: [
      { name: 'containerd', command: 'C:\\k\\containerd.exe', bootstrap: true, priority: 0 },
      {
        name: 'kubelet',
        command: 'C:\\k\\kube-log-runner.exe -- C:\\k\\kubelet.exe --config=C:\\k\\kubelet.conf',
        bootstrap: true,
        priority: 1,
        dependencies: ['containerd'],
      },
      {
        name: 'kube-proxy',
        command: 'C:\\k\\kube-log-runner.exe -- C:\\k\\kube-proxy.exe',
        bootstrap: false,
        priority: 2,
        dependencies: ['kubelet'],
      },
    ],
    envVars: {},
    routes: [],
    firewallRules: [],
    features: [],
    ...over,
  };
}

const show = (steps: readonly PlanStep[]): string[] =>
  steps.map((s) =>
    s.kind === 'placeFile'
      ? `place ${s.path.replace('C:\\k\\', '')}`
      : s.kind === 'startService'
        ? `start ${s.name}`
        : s.kind === 'runScript'
          ? `script ${s.name}`
          : s.kind,
  );

test('a file only a later level reads is placed right before that level: containerd starts before the kubelet’s files are placed', (t) => {
  t.deepEqual(show(plan(observedHost(), spec()).steps), [
    'createDirectory',
    'place containerd.exe',
    // Read by no service the plan starts: stays with the others.
    'place cni\\win-overlay.exe',
    'createService',
    'createService',
    'createService',
    'start containerd',
    // kube-log-runner.exe is read by the kubelet and by kube-proxy: before the first of them.
    'place kubelet.exe',
    'place kube-log-runner.exe',
    'place kubelet.conf',
    'start kubelet',
    'place kube-proxy.exe',
    'start kube-proxy',
  ]);
});

test('a level’s files come before its pre-scripts, and a file a step other than a start names stays with the others', (t) => {
  const scripted = spec({
    serviceScripts: {
      'kube-proxy': [{ name: 'kube-proxy.0', script: 'C:\\k\\kube-proxy.exe --version' }],
    },
    envVars: { KUBELET_CONF: 'C:\\k\\kubelet.conf' },
  });
  const steps = show(plan(observedHost(), scripted).steps);
  // kube-proxy.exe is named by the pre-script: placed early, as before. kubelet.conf by the variable.
  t.true(steps.indexOf('place kube-proxy.exe') < steps.indexOf('start containerd'));
  t.true(steps.indexOf('place kubelet.conf') < steps.indexOf('start containerd'));
  t.deepEqual(steps.slice(steps.indexOf('start containerd')), [
    'start containerd',
    'place kubelet.exe',
    'place kube-log-runner.exe',
    'start kubelet',
    'script kube-proxy.0',
    'start kube-proxy',
  ]);
});

test('a file read through serviceFiles moves with its service; a first-level file and a single level change nothing', (t) => {
  const viaFiles = spec({ serviceFiles: { 'kube-proxy': ['C:\\k\\cni\\win-overlay.exe'] } });
  const steps = show(plan(observedHost(), viaFiles).steps);
  t.deepEqual(steps.slice(-3), ['place kube-proxy.exe', 'place cni\\win-overlay.exe', 'start kube-proxy']);

  const one: PlanStep[] = [
    { kind: 'placeFile', path: 'C:\\k\\containerd.exe', sha256: sha('a') },
    { kind: 'placeFile', path: 'C:\\k\\kubelet.exe', sha256: sha('b') },
    { kind: 'startServices', names: ['containerd', 'kubelet'] },
  ];
  t.deepEqual(withFilesBeforeTheirStart(one, spec()), one);
});

test('a plan without starts, or one already in place, is left as it is', (t) => {
  const noStarts: PlanStep[] = [
    { kind: 'placeFile', path: 'C:\\k\\kubelet.exe', sha256: sha('b') },
    { kind: 'createDirectory', path: 'C:\\k' },
  ];
  t.deepEqual(withFilesBeforeTheirStart(noStarts, spec()), noStarts);
  const placedLate = plan(observedHost(), spec()).steps;
  t.deepEqual(withFilesBeforeTheirStart(placedLate, spec()), placedLate, 'idempotent');
});
