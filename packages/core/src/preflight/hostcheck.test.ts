import test from 'ava';
import { AuthenticationError, HostProtocolError } from '../host/errors.js';
import type { HostState } from '../host/protocol/index.js';
import type { SshHostOptions } from '../host/ssh/ssh-options.js';
import type { ObserveQuery, WindowsHost } from '../host/windows-host.js';
import type { CaptureRecord } from '../host/capture/host-capture.js';
import { hostcheckQuery, runHostcheck, type HostcheckPorts } from './hostcheck.js';

const RECORD: CaptureRecord = { name: 'ps-version', command: '$PSVersionTable', items: [], error: null };
const TARGET = { host: '10.0.0.5', port: 22, username: 'Administrator', privateKey: 'k', timeoutMs: 1000 };

/** A host whose observe does `observe`; every call is logged. */
function ports(observe: (q: ObserveQuery) => Promise<HostState>, log: string[]): HostcheckPorts {
  const refuse = (): never => {
    throw new Error('hostcheck must not change the host');
  };
  return {
    openHost: (o: SshHostOptions): WindowsHost => {
      log.push(`open ${o.host}:${String(o.port)} hostKeys=${o.hostKeys.constructor.name}`);
      return {
        address: o.host,
        observe: (q) => (log.push('observe'), observe(q)),
        upload: refuse,
        apply: refuse,
        reboot: refuse,
        deconfigure: refuse,
        close: () => (log.push('close'), Promise.resolve()),
      };
    },
    capture: (o) => (log.push(`capture ${o.host}`), Promise.resolve([RECORD])),
  };
}

test('an observe the module fails is kept as the result, and the capture still runs', async (t) => {
  const log: string[] = [];
  const result = await runHostcheck(
    TARGET,
    ports(
      () => Promise.reject(new HostProtocolError('10.0.0.5', 'state.firewallRules: expected array')),
      log,
    ),
  );
  t.deepEqual(result.observe, {
    error: 'host 10.0.0.5 gave no valid result: state.firewallRules: expected array',
  });
  t.deepEqual(result.records, [RECORD]);
  t.deepEqual(log, [
    'open 10.0.0.5:22 hostKeys=InMemoryHostKeyStore',
    'observe',
    'close',
    'capture 10.0.0.5',
  ]);
});

test('a connection that cannot be made is thrown, and nothing else is tried', async (t) => {
  const log: string[] = [];
  const err = await t.throwsAsync(
    runHostcheck(
      TARGET,
      ports(() => Promise.reject(new AuthenticationError('10.0.0.5', 'Administrator', 'denied')), log),
    ),
  );
  t.true(err instanceof AuthenticationError);
  t.deepEqual(log, ['open 10.0.0.5:22 hostKeys=InMemoryHostKeyStore', 'observe', 'close']);
});

test('the query reads only: no plan, and only the read-only pre-scripts', (t) => {
  const q = hostcheckQuery(
    '(Invoke-RestMethod -UseBasicParsing -Uri http://169.254.169.254/latest/meta-data/local-hostname)',
  );
  t.deepEqual(
    q.evaluate?.map((e) => e.name),
    ['NODE_IP', 'HOSTNAME_OVERRIDE'],
  );
  t.deepEqual(q.firewallRules, ['ContainerLogsPort', 'WindowsExporter']);
  t.deepEqual(q.rootCertificates, []);
  t.deepEqual(
    hostcheckQuery().evaluate?.map((e) => e.name),
    ['NODE_IP'],
  );
});
