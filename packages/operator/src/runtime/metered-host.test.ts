import test from 'ava';
import type { HostState, ObserveQuery, WindowsHost } from '@wmco/core';
import { MeteredWindowsHost, type HostMeter } from './metered-host.js';

const query: ObserveQuery = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };

function recorder(): HostMeter & { ops: string[]; starts: number; bytes: number } {
  const r = {
    ops: [] as string[],
    starts: 0,
    bytes: 0,
    operation: (op: string, result: string) => r.ops.push(`${op}:${result}`),
    powershellStarts: (n: number) => (r.starts += n),
    bytesSent: (n: number) => (r.bytes += n),
  };
  return r;
}

/** A host whose counters grow like the SSH adapter's and whose apply fails. */
function countingHost(): WindowsHost & { stats: { powershellStarts: number; bytesSent: number } } {
  const stats = { powershellStarts: 0, bytesSent: 0 };
  const fail = (): Promise<never> => Promise.reject(new Error('host said no'));
  return {
    address: '10.0.0.5',
    stats,
    observe: () => {
      stats.powershellStarts += 2; // module preparation and the call itself
      return Promise.resolve({} as HostState);
    },
    upload: (files) => {
      stats.bytesSent += 1000;
      return Promise.resolve({ uploaded: files.map((f) => f.sha256), skipped: [], bytesSent: 1000 });
    },
    apply: () => {
      stats.powershellStarts += 1;
      return fail();
    },
    reboot: fail,
    deconfigure: fail,
    close: () => Promise.resolve(),
  };
}

test('counts each operation by result and the growth of the adapter counters', async (t) => {
  const meter = recorder();
  const host = new MeteredWindowsHost(countingHost(), meter);
  t.is(host.address, '10.0.0.5');
  await host.observe(query);
  await host.upload([{ sha256: 'ab', source: Buffer.from('x') }]);
  await t.throwsAsync(host.apply({ steps: [] }), { message: 'host said no' });
  await host.observe(query);
  t.deepEqual(meter.ops, ['observe:success', 'upload:success', 'apply:error', 'observe:success']);
  t.is(meter.starts, 5);
  t.is(meter.bytes, 1000);
});

test('a host without counters still reports its operations', async (t) => {
  const meter = recorder();
  const { stats: _none, ...plain } = countingHost();
  const host = new MeteredWindowsHost(plain, meter);
  await host.observe(query);
  t.deepEqual(meter.ops, ['observe:success']);
  t.is(meter.starts, 0);
});

test("apply's options reach the inner host (a first apply that schedules its own reboot)", async (t) => {
  const seen: unknown[] = [];
  const inner = {
    ...countingHost(),
    apply: (_p: unknown, o?: unknown) => (seen.push(o), Promise.resolve({})),
  };
  const host = new MeteredWindowsHost(inner as unknown as WindowsHost, recorder());
  await host.apply({ steps: [] }, { rebootWhenRequired: true });
  t.deepEqual(seen, [{ rebootWhenRequired: true }]);
});
