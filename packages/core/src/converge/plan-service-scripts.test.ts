import test from 'ava';
import { managedService, observedHost } from './plan.test-helper.js';
import type { HostState, ServiceState } from '../host/protocol/index.js';
import { applyRequestSchema } from '../host/protocol/index.js';
import { describe } from './describe-plan.js';
import type { HostSpec } from '../desired/host-spec.js';
import { plan } from './plan.js';

const NETWORK_CONF = {
  name: 'kube-proxy.0',
  script: 'C:\\Temp\\network-conf.ps1 -clusterCIDR $WmcoArg_NODE_SUBNET',
  args: { NODE_SUBNET: '10.132.1.0/24' },
};

function svc(name: string, state: ServiceState['state'] = 'running'): ServiceState {
  return managedService(name, {
    state,
    dependencies: name === 'kube-proxy' ? ['hybrid-overlay-node'] : [],
  });
}

function hostState(services: ServiceState[]): HostState {
  return observedHost({ services });
}

function spec(): HostSpec {
  return {
    directories: [],
    files: [],
    services: [
      {
        name: 'kube-proxy',
        command: 'C:\\k\\kube-proxy.exe',
        bootstrap: false,
        priority: 3,
        dependencies: ['hybrid-overlay-node'],
      },
      {
        name: 'hybrid-overlay-node',
        command: 'C:\\k\\hybrid-overlay-node.exe',
        bootstrap: false,
        priority: 2,
      },
    ],
    envVars: {},
    routes: [],
    firewallRules: [],
    features: [],
    serviceScripts: { 'kube-proxy': [NETWORK_CONF] },
  };
}

const names = (h: HostState): string[] =>
  plan(h, spec()).steps.map((s) => `${s.kind} ${'name' in s ? s.name : ''}`);

test('a fresh host: every level in one plan, the pre-script after the service it needs and before its own', (t) => {
  t.deepEqual(names(hostState([])), [
    'createService hybrid-overlay-node',
    'createService kube-proxy',
    'startService hybrid-overlay-node',
    'runScript kube-proxy.0',
    'startService kube-proxy',
  ]);
  const p = plan(hostState([]), spec());
  t.true(applyRequestSchema.safeParse({ v: 1, op: 'apply', steps: p.steps }).success, 'a valid request');
  t.regex(describe(p), /run pre-script kube-proxy\.0: C:\\Temp\\network-conf\.ps1/);
});

test('pre-scripts run only when their service starts: none on a matching host, again on a restart', (t) => {
  const running = [svc('hybrid-overlay-node'), svc('kube-proxy')];
  t.deepEqual(names(hostState(running)), []);
  t.deepEqual(names(hostState([svc('hybrid-overlay-node'), svc('kube-proxy', 'stopped')])), [
    'runScript kube-proxy.0',
    'startService kube-proxy',
  ]);
  // hybrid-overlay reconfigured: kube-proxy (its dependent) is restarted, after its pre-script.
  const edited = [
    { ...svc('hybrid-overlay-node'), commandLine: 'C:\\k\\hybrid-overlay-node.exe --x' },
    svc('kube-proxy'),
  ];
  t.deepEqual(names(hostState(edited)), [
    'stopService kube-proxy',
    'stopService hybrid-overlay-node',
    'configureService hybrid-overlay-node',
    'startService hybrid-overlay-node',
    'runScript kube-proxy.0',
    'startService kube-proxy',
  ]);
});

test('a runScript step is validated like an evaluate entry: one line, bounded, arguments as data', (t) => {
  const bad = (step: object): boolean =>
    !applyRequestSchema.safeParse({ v: 1, op: 'apply', steps: [{ kind: 'runScript', ...step }] }).success;
  t.false(bad(NETWORK_CONF));
  t.true(bad({ ...NETWORK_CONF, script: 'a\nb' }));
  t.true(bad({ ...NETWORK_CONF, name: 'bad name' }));
  t.true(bad({ ...NETWORK_CONF, args: { 'NODE-SUBNET': 'x' } }));
  t.true(bad({ ...NETWORK_CONF, script: 'x'.repeat(5000) }));
});
