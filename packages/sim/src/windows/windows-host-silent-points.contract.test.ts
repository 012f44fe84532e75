// The silent points of host-faults.ts, each against the adapter's deadline for that point (issue 28): a
// host that stays silent at any point of the protocol fails the call at that point's deadline, and says
// where.
import test from 'ava';
import { createHash } from 'node:crypto';
import {
  HostCommandTimeoutError,
  HostOutputLimitError,
  HostRequestTimeoutError,
  HostUnreachableError,
} from '@wmco/core';
import { startHostWorld } from './windows-host-fixture.js';

const emptyQuery = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };

test('silent at the handshake: connecting gives up after the silent attempts, not at the connect deadline', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  w.sim.faults.silentAt = 'handshake';
  const host = w.connect({
    readyTimeoutMs: 200,
    silentHandshakeAttempts: 2,
    connectDeadlineMs: 10 * 60_000,
  });
  const err = await t.throwsAsync(host.observe(emptyQuery), { instanceOf: HostUnreachableError });
  t.regex(err.message, /did not finish the SSH handshake within 200 ms \(2 attempts/);
  delete w.sim.faults.silentAt;
  // A fresh adapter with the default handshake deadline (200 ms is too short for a busy machine's handshake).
  t.truthy(await w.connect().observe(emptyQuery), 'the host answers again');
});

test('silent at SFTP: the request names what it asked for and where', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const host = w.connect({ sftpRequestTimeoutMs: 300 });
  await host.observe(emptyQuery);
  w.sim.faults.silentAt = 'sftp';
  t.truthy(await host.observe(emptyQuery), 'commands still work');
  const data = Buffer.from('payload');
  const sha256 = createHash('sha256').update(data).digest('hex');
  const err = await t.throwsAsync(host.upload([{ sha256, source: data }]), {
    instanceOf: HostRequestTimeoutError,
  });
  t.regex(err.message, /^SFTP stat of C:\\.*\\[0-9a-f]{64} on .* got no answer within 300 ms/);
});

test('silent before the ready line: the module start fails at its deadline', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  await w.host.observe(emptyQuery);
  w.sim.faults.silentAt = 'ready';
  const host = w.connect({ sessionStartTimeoutMs: 300, assumeModule: true });
  const err = await t.throwsAsync(host.observe(emptyQuery), { instanceOf: HostRequestTimeoutError });
  t.regex(err.message, /starting the host module on .* got no answer within 300 ms/);
});

test('silent mid-command: an apply fails at a deadline sized to its steps, not the longest one', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const host = w.connect({
    quickCommandTimeoutMs: 200,
    applyStepTimeoutMs: 100,
    serviceStepTimeoutMs: 10 * 60_000,
    commandTimeoutMs: 15 * 60_000,
  });
  await host.observe(emptyQuery);
  w.sim.faults.silentAt = 'command';
  const steps = [
    { kind: 'createDirectory' as const, path: 'C:\\k\\a' },
    { kind: 'setEnvVar' as const, name: 'WMCO_A', value: '1' },
  ];
  const err = await t.throwsAsync(host.apply({ steps }), { instanceOf: HostCommandTimeoutError });
  t.is(err.timeoutMs, 400, 'the quick deadline and 100 ms for each of two steps');
  t.regex(err.message, /the apply request on .* did not finish within 400 ms/);
  const observed = await t.throwsAsync(host.observe(emptyQuery), { instanceOf: HostCommandTimeoutError });
  t.regex(observed.message, /the observe request on .* did not finish within 200 ms/);
});

test('a host that answers every write, only too slowly, fails the upload at a deadline sized by its bytes', async (t) => {
  const w = await startHostWorld({ costs: { bandwidthBytesPerSec: 256 * 1024 } });
  t.teardown(() => w.stop());
  const host = w.connect({
    sftpRequestTimeoutMs: 1000,
    sftpChunkSize: 32 * 1024,
    sftpConcurrency: 1,
    uploadMinBytesPerSecond: 8 * 1024 * 1024,
  });
  await host.observe(emptyQuery);
  const data = Buffer.alloc(2 * 1024 * 1024, 7);
  const sha256 = createHash('sha256').update(data).digest('hex');
  const err = await t.throwsAsync(host.upload([{ sha256, source: data }]));
  t.regex(
    err.message,
    /^upload to .* failed: 2097152 bytes were not sent within 2250 ms \(slower than 8388608 bytes\/s\)/,
  );
});

test('endless short lines on every call: each call ends at the bound, and the host could write little more', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const bound = 256 * 1024;
  const host = w.connect({ maxOutputBytes: bound });
  await host.observe(emptyQuery);
  w.sim.faults.endlessOutputAlways = 'lines';
  for (let call = 1; call <= 2; call++) {
    const err = await t.throwsAsync(host.observe(emptyQuery), { instanceOf: HostOutputLimitError });
    t.regex(err.message, /printed more than 262144 bytes for one command/);
  }
  delete w.sim.faults.endlessOutputAlways;
  t.truthy(await host.observe(emptyQuery), 'the next call works');
  // The operator stopped reading at the bound and closed the channel: the host wrote at most the bound
  // plus what the SSH window (2 MiB in ssh2) let through, per call; an operator that kept reading would
  // have let it write without end.
  t.true(w.sim.stats.floodBytes < 2 * (bound + 3 * 1024 * 1024), `${w.sim.stats.floodBytes} bytes`);
});
