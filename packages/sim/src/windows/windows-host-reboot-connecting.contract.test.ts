import test from 'ava';
import { connect } from 'node:net';
import { once } from 'node:events';
import { startHostWorld } from './windows-host-fixture.js';

test('a reboot drops a connection that has not identified itself yet, and the host comes back', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  // A client that connected but has not sent its SSH identification line (a connect under way when the
  // host goes down). The host's own identification line says it was accepted.
  const raw = connect(w.sim.port, w.sim.host);
  raw.on('error', () => undefined);
  const [greeting] = (await once(raw, 'data')) as [Buffer];
  t.regex(greeting.toString('latin1'), /^SSH-2\.0-OpenSSH_for_Windows/);
  const closed = once(raw, 'close');
  const bootedBefore = w.sim.model.lastBootTime.getTime();
  // Before, the listening socket's close waited for this connection, so the reboot never ended.
  await w.sim.reboot();
  await closed;
  t.true(w.sim.model.lastBootTime.getTime() > bootedBefore);
  // Back: a new session works.
  const seen = await w
    .connect()
    .observe({ directories: [], files: [], services: [], envVars: [], firewallRules: [] });
  t.truthy(seen);
});
