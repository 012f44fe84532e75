import test from 'ava';
import { startHostWorld } from './windows-host-fixture.js';

test('an abort while waiting for a rebooting host ends the wait at once, not at the reboot timeout', async (t) => {
  const w = await startHostWorld({ costs: { rebootMs: 5000 } });
  t.teardown(() => w.stop());
  const stop = new AbortController();
  // Deadlines that never come: the wait can end early only by the abort; without it the host is back after
  // 5 s and the reboot succeeds, which fails this test. The abort comes once the adapter waits for the
  // host that went down (it logs a failed connect or a look at a host not back yet).
  let waiting: () => void = () => undefined;
  const hostDown = new Promise<void>((resolve) => (waiting = resolve));
  const host = w.connect({
    signal: stop.signal,
    rebootTimeoutMs: 3_600_000,
    connectDeadlineMs: 3_600_000,
    logger: {
      warn: () => undefined,
      debug: (message) => {
        if (['ssh connect failed; retrying', 'host not back yet'].includes(message)) waiting();
      },
    },
  });
  await host.observe({ directories: [], files: [], services: [], envVars: [], firewallRules: [] });
  const rebooting = host.reboot();
  await hostDown;
  stop.abort();
  const err = await t.throwsAsync(rebooting);
  t.regex(err.message, /connecting was abandoned/);
});
