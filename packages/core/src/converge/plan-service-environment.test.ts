import test from 'ava';
import { managedService, observedHost } from './plan.test-helper.js';
import type { HostState, ServiceState } from '../host/protocol/index.js';
import { applyRequestSchema } from '../host/protocol/index.js';
import { describe } from './describe-plan.js';
import type { HostSpec } from '../desired/host-spec.js';
import { plan } from './plan.js';

function svc(name: string, environment?: string[]): ServiceState {
  return managedService(name, {
    dependencies: name === 'kubelet' ? ['containerd'] : [],
    ...(environment ? { environment } : {}),
  });
}

function state(services: ServiceState[]): HostState {
  return observedHost({ services });
}

function spec(proxy: Record<string, string>): HostSpec {
  return {
    directories: [],
    files: [],
    services: [
      { name: 'containerd', command: 'C:\\k\\containerd.exe', priority: 0, bootstrap: true },
      {
        name: 'kubelet',
        command: 'C:\\k\\kubelet.exe',
        priority: 1,
        bootstrap: true,
        dependencies: ['containerd'],
      },
    ],
    envVars: {},
    routes: [],
    firewallRules: [],
    features: [],
    serviceEnvironment: { containerd: proxy, kubelet: proxy, absent: proxy },
  };
}

const PROXY = { HTTP_PROXY: 'http://user:pw@proxy:3128', NO_PROXY: '.svc' };

test('a changed service environment is set and the service restarted, dependents first', (t) => {
  const p = plan(
    state([svc('containerd'), svc('kubelet', ['NO_PROXY=.svc', 'HTTP_PROXY=http://user:pw@proxy:3128'])]),
    spec(PROXY),
  );
  t.deepEqual(p.steps, [
    { kind: 'stopService', name: 'kubelet' },
    { kind: 'stopService', name: 'containerd' },
    {
      kind: 'setServiceEnvironment',
      name: 'containerd',
      environment: ['HTTP_PROXY=http://user:pw@proxy:3128', 'NO_PROXY=.svc'],
    },
    { kind: 'startService', name: 'containerd' },
    { kind: 'startService', name: 'kubelet' },
  ]);
  t.false(describe(p).includes('pw@'), 'proxy credentials are not shown');
  t.true(applyRequestSchema.safeParse({ v: 1, op: 'apply', steps: p.steps }).success);
});

test('an equal environment (any order) is left alone; a cleared proxy clears the value', (t) => {
  const both = ['NO_PROXY=.svc', 'HTTP_PROXY=http://user:pw@proxy:3128'];
  t.deepEqual(plan(state([svc('containerd', both), svc('kubelet', both)]), spec(PROXY)).steps, []);
  const cleared = plan(state([svc('containerd', both), svc('kubelet')]), spec({}));
  t.deepEqual(
    cleared.steps.filter((s) => s.kind === 'setServiceEnvironment'),
    [{ kind: 'setServiceEnvironment', name: 'containerd', environment: [] }],
  );
  t.regex(describe(cleared), /clear the environment of service containerd/);
});

test('a value with a line break is refused by the protocol', (t) => {
  const bad = { kind: 'setServiceEnvironment', name: 'kubelet', environment: ['HTTP_PROXY=a\r\nB=c'] };
  t.false(applyRequestSchema.safeParse({ v: 1, op: 'apply', steps: [bad] }).success);
});
