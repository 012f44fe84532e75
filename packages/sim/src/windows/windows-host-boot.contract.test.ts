// Reboot detection against a simulated host whose reported boot time drifts, as Windows' does (ADR 0032).
import test from 'ava';
import { startHostWorld } from './windows-host-fixture.js';

const emptyQuery = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };

test('the reported boot time moves between reads without a reboot; the boot id does not', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const first = await w.host.observe(emptyQuery);
  w.sim.model.bootTime.correctClock(2000);
  const second = await w.host.observe(emptyQuery);
  t.regex(first.lastBootTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/, "seven decimals, as ToString('o')");
  t.not(second.lastBootTime, first.lastBootTime);
  t.is(second.bootId, first.bootId);
});

test('reboot() returns once the host has restarted, although the boot time read differently before it went down', async (t) => {
  // The host answers for a while before it goes down (shutdown /r /t 3): a look at it then is the old boot.
  const w = await startHostWorld({ costs: { rebootMs: 100, rebootGraceMs: 400 } });
  t.teardown(() => w.stop());
  const before = await w.host.observe(emptyQuery);
  const booted = w.sim.model.lastBootTime.getTime();
  await w.host.reboot();
  t.true(w.sim.model.lastBootTime.getTime() > booted, 'the host restarted before reboot() returned');
  const after = await w.host.observe(emptyQuery);
  t.not(after.bootId, before.bootId);
});
