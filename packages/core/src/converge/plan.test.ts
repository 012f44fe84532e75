import test from 'ava';
import { managedService, observedHost } from './plan.test-helper.js';
import type { HostState, ServiceState } from '../host/protocol/index.js';
import { describe } from './describe-plan.js';
import type { HostSpec } from '../desired/host-spec.js';
import { plan } from './plan.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

function state(over: Partial<HostState> = {}): HostState {
  return observedHost({
    routes: [{ destinationPrefix: '0.0.0.0/0', nextHop: '10.0.0.1', interfaceIndex: 6 }],
    ...over,
  });
}

function svc(name: string, over: Partial<ServiceState> = {}): ServiceState {
  return managedService(name, over);
}

const spec: HostSpec = {
  directories: ['C:\\k'],
  files: [
    { path: 'C:\\k\\a.exe', sha256: A },
    { path: 'C:\\k\\b.exe', sha256: B },
  ],
  services: [
    { name: 'b', command: 'C:\\k\\b.exe', bootstrap: false, priority: 2, dependencies: ['a'] },
    { name: 'a', command: 'C:\\k\\a.exe', bootstrap: true, priority: 1 },
  ],
  envVars: { HTTP_PROXY: 'http://p:1' },
  routes: [{ destinationPrefix: '169.254.169.254/32', description: 'metadata' }],
  firewallRules: [{ name: 'vxlan', protocol: 'UDP', localPort: 4789, direction: 'Inbound' }],
  features: ['Containers'],
};

const matching = state({
  directories: ['c:\\K'],
  files: [
    { path: 'C:\\K\\A.EXE', sha256: A },
    { path: 'C:\\k\\b.exe', sha256: B },
  ],
  services: [svc('a'), svc('b', { dependencies: ['A'] })],
  envVars: { HTTP_PROXY: 'http://p:1' },
  routes: [
    { destinationPrefix: '0.0.0.0/0', nextHop: '10.0.0.1', interfaceIndex: 6 },
    { destinationPrefix: '169.254.169.254/32', nextHop: '10.0.0.1', interfaceIndex: 6 },
  ],
  firewallRules: [{ name: 'vxlan', protocol: 'UDP', localPorts: ['4789'], direction: 'Inbound' }],
});

const kinds = (s: HostState, h: HostSpec = spec): string[] =>
  plan(s, h).steps.map(
    (x) =>
      `${x.kind} ${'name' in x ? x.name : 'names' in x ? x.names.join(' ') : 'path' in x ? x.path : 'thumbprint' in x ? x.thumbprint : 'destinationPrefix' in x ? x.destinationPrefix : ''}`,
  );

test('a host that matches gets an empty plan (paths and service names compare case-insensitively)', (t) => {
  t.deepEqual(plan(matching, spec).steps, []);
  t.is(describe(plan(matching, spec)), 'no changes: the host matches its spec');
});

test('an empty host gets everything, services in dependency and priority order', (t) => {
  t.deepEqual(kinds(state({ containersFeature: false })), [
    'createDirectory C:\\k',
    'placeFile C:\\k\\a.exe',
    'placeFile C:\\k\\b.exe',
    'createService a',
    'createService b',
    'setEnvVar HTTP_PROXY',
    'addRoute 169.254.169.254/32',
    'addFirewallRule vxlan',
    'startService a',
    'startService b',
    'installFeature Containers',
  ]);
});

test('a changed binary stops its running dependents first, then starts in dependency order', (t) => {
  const s = { ...matching, files: [{ path: 'C:\\k\\a.exe', sha256: B }, matching.files[1]!] };
  t.deepEqual(kinds(s), [
    'stopService b',
    'stopService a',
    'placeFile C:\\k\\a.exe',
    'startService a',
    'startService b',
  ]);
});

test('a changed binary of a service still starting or stopping is stopped first too (Windows locks its image)', (t) => {
  for (const pending of ['start-pending', 'stop-pending'] as const) {
    const s = {
      ...matching,
      files: [{ path: 'C:\\k\\a.exe', sha256: B }, matching.files[1]!],
      services: [svc('a', { state: pending }), svc('b', { state: 'stopped', dependencies: ['a'] })],
    };
    const steps = kinds(s);
    t.true(steps.indexOf('stopService a') >= 0, pending);
    t.true(steps.indexOf('stopService a') < steps.indexOf('placeFile C:\\k\\a.exe'), pending);
  }
});

test('a drifted command line is reconfigured and restarted; description and deps count as drift', (t) => {
  const s = {
    ...matching,
    services: [svc('a', { commandLine: 'C:\\k\\a.exe --debug' }), svc('b', { dependencies: ['a'] })],
  };
  t.deepEqual(kinds(s), [
    'stopService b',
    'stopService a',
    'configureService a',
    'startService a',
    'startService b',
  ]);
  const d = {
    ...matching,
    services: [svc('a', { description: 'hand made' }), svc('b', { dependencies: [] })],
  };
  t.deepEqual(kinds(d), [
    'stopService b',
    'stopService a',
    'configureService a',
    'configureService b',
    'startService a',
    'startService b',
  ]);
});

test('a stopped service is started; an unmanaged running dependent is stopped and restarted', (t) => {
  t.deepEqual(
    kinds({ ...matching, services: [svc('a'), svc('b', { state: 'stopped', dependencies: ['a'] })] }),
    ['startService b'],
  );
  const s = {
    ...matching,
    services: [
      svc('a', { commandLine: 'old' }),
      svc('b', { dependencies: ['a'] }),
      svc('x', { dependencies: ['b'] }),
    ],
  };
  t.deepEqual(kinds(s), [
    'stopService x',
    'stopService b',
    'stopService a',
    'configureService a',
    'startService a',
    'startService b',
    'startService x',
  ]);
});

test('managed env vars that are no longer wanted are removed; features and hostname come last', (t) => {
  const s = { ...matching, envVars: { HTTP_PROXY: 'http://p:1', NO_PROXY: 'x' }, containersFeature: false };
  t.deepEqual(kinds(s, { ...spec, hostname: 'node-1' }), [
    'removeEnvVar NO_PROXY',
    'installFeature Containers',
    'setHostname node-1',
  ]);
  t.deepEqual(kinds({ ...matching, hostname: 'NODE-1' }, { ...spec, hostname: 'node-1' }), []);
});

test('a firewall rule with other settings is replaced', (t) => {
  const s = { ...matching, firewallRules: [{ ...matching.firewallRules[0]!, localPorts: ['4790'] }] };
  t.deepEqual(kinds(s), ['addFirewallRule vxlan']);
});

test('every port of a firewall rule is compared, not only the first', (t) => {
  const rule = matching.firewallRules[0]!;
  for (const localPorts of [['4789', '4790'], ['4790', '4789'], ['4789-4790'], ['Any'], []]) {
    t.deepEqual(kinds({ ...matching, firewallRules: [{ ...rule, localPorts }] }), ['addFirewallRule vxlan']);
  }
  t.deepEqual(kinds({ ...matching, firewallRules: [{ ...rule, protocol: 'Any' }] }), [
    'addFirewallRule vxlan',
  ]);
});

test('describe() numbers the steps in readable words', (t) => {
  const text = describe(
    plan({ ...matching, files: [{ path: 'C:\\k\\a.exe', sha256: B }, matching.files[1]!] }, spec),
  );
  t.is(
    text,
    [
      '5 steps:',
      '1. stop service b',
      '2. stop service a',
      '3. place file C:\\k\\a.exe (sha256 aaaaaaaaaaaa…)',
      '4. start service a',
      '5. start service b',
    ].join('\n'),
  );
});

test('a dependency cycle is broken, never an endless loop', (t) => {
  const cyclic: HostSpec = {
    ...spec,
    services: [
      { name: 'a', command: 'C:\\k\\a.exe', bootstrap: true, priority: 1, dependencies: ['b'] },
      { name: 'b', command: 'C:\\k\\b.exe', bootstrap: true, priority: 2, dependencies: ['a'] },
    ],
  };
  const starts = plan(state(), cyclic).steps.filter((s) => s.kind === 'startService');
  t.deepEqual(
    starts.map((s) => ('name' in s ? s.name : '')),
    ['a', 'b'],
  );
});

test('describe() hides credentials in proxy URLs', (t) => {
  const p = plan(matching, {
    ...spec,
    envVars: { HTTP_PROXY: 'http://user:s3cret@proxy:3128', NO_PROXY: 'a,b' },
  });
  t.is(
    describe(p),
    [
      '2 steps:',
      '1. set environment variable HTTP_PROXY=http://***@proxy:3128 (reboot)',
      '2. set environment variable NO_PROXY=a,b (reboot)',
    ].join('\n'),
  );
});
