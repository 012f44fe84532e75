import test from 'ava';
import type { CoreV1Api } from '@kubernetes/client-node';
import type { NodeRecord } from '../identity/node-record.js';
import type { DeconfigureOptions, WindowsHost } from '../host/windows-host.js';
import { StateHost, stateMatching, testDeps } from './lifecycle.test-helper.js';
import { RemoveFlow } from './remove-flow.js';

// Issue 29 item 3: a removal gives the host back as it was before the join.

const record: NodeRecord = {
  source: 'windows-instances',
  instance: '10.0.0.5',
  address: '10.0.0.5',
  nodeName: 'win-a',
  username: 'Administrator',
  appliedTags: [],
  recordedAt: '2026-01-01T00:00:00Z',
};

async function removeWith(rebootRequired: boolean): Promise<{ asked: DeconfigureOptions[]; log: string[] }> {
  const core = new Proxy({}, { get: () => () => Promise.resolve({ items: [] }) }) as CoreV1Api;
  const base = new StateHost(
    stateMatching({
      directories: [],
      files: [],
      services: [],
      envVars: {},
      routes: [],
      firewallRules: [],
      features: [],
    }),
  );
  const asked: DeconfigureOptions[] = [];
  const log: string[] = [];
  const host: WindowsHost = {
    address: base.address,
    observe: (q) => base.observe(q),
    upload: (f) => base.upload(f),
    apply: (p) => base.apply(p),
    reboot: () => (log.push('reboot'), Promise.resolve()),
    deconfigure: (o) => (
      asked.push(o),
      log.push('deconfigure'),
      Promise.resolve({ done: [], rebootRequired })
    ),
    close: () => (log.push('close'), Promise.resolve()),
  };
  const deps = { ...testDeps(host, { core }), openHost: () => host };
  const signal = new AbortController().signal;
  await new RemoveFlow(deps).remove({ record, node: undefined }, 'key', {
    deleteLogs: false,
    drainTimeoutMs: 1000,
    signal,
  });
  return { asked, log };
}

test('removal asks for the Root certificates and firewall rules the operator marked as its own', async (t) => {
  const { asked } = await removeWith(false);
  t.is(asked.length, 1);
  t.true(asked[0]?.removeManagedRootCertificates);
  t.deepEqual(asked[0]?.firewallRules, ['ContainerLogsPort', 'WindowsExporter']);
  t.true(asked[0]?.directories.includes('C:\\var\\lib\\cni'));
});

test('removal restarts the host when the revert needs it (machine variables, Root store), before closing', async (t) => {
  t.deepEqual((await removeWith(true)).log, ['deconfigure', 'reboot', 'close']);
  t.deepEqual((await removeWith(false)).log, ['deconfigure', 'close']);
});
