import test from 'ava';
import { managedService, observedHost } from './plan.test-helper.js';
import type { HostState, ServiceState } from '../host/protocol/index.js';
import type { HostSpec } from '../desired/host-spec.js';
import { plan } from './plan.js';

const CERT = 'C:\\k\\tls\\certs\\tls.crt';

const svc = (name: string): ServiceState => managedService(name);

function state(certSha: string): HostState {
  return observedHost({
    files: [{ path: CERT, sha256: certSha }],
    services: [svc('kubelet'), svc('windows_exporter')],
  });
}

function spec(serviceFiles?: HostSpec['serviceFiles']): HostSpec {
  return {
    directories: [],
    files: [{ path: CERT, sha256: 'b'.repeat(64) }],
    services: [
      { name: 'kubelet', command: 'C:\\k\\kubelet.exe', priority: 1, bootstrap: true },
      { name: 'windows_exporter', command: 'C:\\k\\windows_exporter.exe', priority: 2, bootstrap: false },
    ],
    envVars: {},
    routes: [],
    firewallRules: [],
    features: ['Containers'],
    ...(serviceFiles ? { serviceFiles } : {}),
  };
}

const kinds = (s: HostSpec, st: HostState): string[] =>
  plan(st, s).steps.map((x) => `${x.kind}${'name' in x ? ` ${x.name}` : ''}`);

test('a new file a service reads at start restarts that service only, around the file', (t) => {
  t.deepEqual(kinds(spec({ windows_exporter: [CERT.toUpperCase()] }), state('a'.repeat(64))), [
    'stopService windows_exporter',
    'placeFile',
    'startService windows_exporter',
  ]);
});

test('without serviceFiles the same file is placed with no restart; an unchanged file restarts nothing', (t) => {
  t.deepEqual(kinds(spec(), state('a'.repeat(64))), ['placeFile']);
  t.deepEqual(kinds(spec({ windows_exporter: [CERT] }), state('b'.repeat(64))), []);
});
