// Deadlines and bounds on every host operation (issue 28): the WindowsHost adapter against a simulated
// host that accepts SSH and then answers nothing, or prints endless short lines.
import test from 'ava';
import { createHash } from 'node:crypto';
import { HOST_PROTOCOL_VERSION } from '@wmco/core/internal';
import {
  HostCommandTimeoutError,
  HostOutputLimitError,
  HostRequestTimeoutError,
  HostWorkAbandonedError,
} from '@wmco/core';
import { startHostWorld } from './windows-host-fixture.js';

const emptyQuery = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };

test('a host silent before the module is ready fails the call at the start deadline; the next call reconnects', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  await w.host.observe(emptyQuery);
  w.sim.faults.silent = true;
  // A host an earlier join installed the module on: the first call starts the session, no SFTP look first.
  const host = w.connect({ sessionStartTimeoutMs: 300, assumeModule: true });
  const err = await t.throwsAsync(host.observe(emptyQuery), { instanceOf: HostRequestTimeoutError });
  t.regex(err.message, /starting the host module on .* got no answer within 300 ms/);
  delete w.sim.faults.silent;
  t.is(
    (await host.observe(emptyQuery)).v,
    HOST_PROTOCOL_VERSION,
    'the host answers again: the adapter goes on',
  );
});

test('a host silent during a request fails an observe at the quick deadline, not the 15-minute one', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const host = w.connect({ quickCommandTimeoutMs: 300, commandTimeoutMs: 10 * 60_000 });
  await host.observe(emptyQuery);
  w.sim.faults.silent = true;
  const err = await t.throwsAsync(host.observe(emptyQuery), { instanceOf: HostCommandTimeoutError });
  t.is(err.timeoutMs, 300);
});

test('an SFTP request the host never answers fails the upload at its deadline', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const host = w.connect({ sftpRequestTimeoutMs: 300 });
  await host.observe(emptyQuery);
  w.sim.faults.silent = true;
  const data = Buffer.from('payload');
  const sha256 = createHash('sha256').update(data).digest('hex');
  const err = await t.throwsAsync(host.upload([{ sha256, source: data }]), {
    instanceOf: HostRequestTimeoutError,
  });
  t.regex(err.message, /^SFTP \w+ (of|to) C:\\.* on .* got no answer within 300 ms/);
});

test('an abort ends a request to a silent host at once, whatever its deadline', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const stop = new AbortController();
  const host = w.connect({ signal: stop.signal, quickCommandTimeoutMs: 10 * 60_000 });
  await host.observe(emptyQuery);
  w.sim.faults.silent = true;
  const pending = host.observe(emptyQuery);
  // Aborted once the request reached the host (the host counted no result: it is silent).
  const reached = w.sim.invocations.length;
  setImmediate(() => stop.abort());
  await t.throwsAsync(pending, { instanceOf: HostWorkAbandonedError });
  t.is(w.sim.invocations.length, reached);
});

test('endless short lines are bounded as one endless line is: the call fails, memory stays bounded', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const capped = w.connect({ maxOutputBytes: 256 * 1024 });
  await capped.observe(emptyQuery);
  w.sim.faults.endlessOutput = 'lines';
  const err = await t.throwsAsync(capped.observe(emptyQuery), { instanceOf: HostOutputLimitError });
  t.regex(err.message, /printed more than 262144 bytes for one command/);
  t.is((await capped.observe(emptyQuery)).v, HOST_PROTOCOL_VERSION, 'the next call works');
});
