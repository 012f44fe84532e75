import test from 'ava';
import type { SimulatedWindowsHost, SilenceFaults } from '@wmco/sim';
import { eventsAbout, phaseIs, testWorld, until } from './world-fixture.js';
import type { SimWorld } from './sim-world.js';

// Issue 28: five hosts that accept SSH and then stay silent held every join lane for more than 7 minutes,
// an honest host listed meanwhile never started, and the operator still waited 20 s after SIGTERM. Each
// host below is silent at another point of the protocol (host-faults.ts); the deadlines come from the
// operator's config (`--host-handshake-timeout`, `--host-request-timeout`).

const SILENT: readonly {
  readonly hostname: string;
  readonly fault: SilenceFaults;
  readonly error: RegExp;
}[] = [
  {
    hostname: 'SILENT-HANDSHAKE',
    fault: { silentAt: 'handshake' },
    error: /did not finish the SSH handshake within 3000 ms/,
  },
  {
    hostname: 'SILENT-SFTP',
    fault: { silentAt: 'sftp' },
    error: /SFTP stat of C:\\.* got no answer within 3000 ms/,
  },
  {
    hostname: 'SILENT-READY',
    fault: { silentAt: 'ready' },
    error: /starting the host module on .* got no answer within 3000 ms/,
  },
  {
    hostname: 'SILENT-COMMAND',
    fault: { silentAt: 'command' },
    error: /the observe request on .* did not finish within 3000 ms/,
  },
  {
    hostname: 'SILENT-ALL',
    fault: { silent: true },
    error: /SFTP stat of C:\\.* got no answer within 3000 ms/,
  },
];

/** Five silent hosts first, the honest one listed last; the key Secret and the instances written. */
async function silentWorld(
  extra: Parameters<typeof testWorld>[1],
): Promise<{ world: SimWorld; silent: SimulatedWindowsHost[]; honest: string; logs: string[] }> {
  const { world, logs } = await testWorld(
    [...SILENT.map((s) => ({ hostname: s.hostname })), { hostname: 'HONEST' }],
    {
      parallelJoins: 2,
      driftRepairIntervalMs: 0,
      ...extra,
    },
  );
  const silent = SILENT.map((s, i) => {
    const sim = world.hosts.hosts[i]!.sim;
    Object.assign(sim.faults, s.fault);
    return sim;
  });
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
  return { world, silent, honest: world.hosts.hosts[SILENT.length]!.address, logs };
}

test('five hosts silent at five points and two lanes: the honest host joins; each silent host says where it stopped', async (t) => {
  const { world, honest } = await silentWorld({
    hostLimits: { handshakeTimeoutMs: 3000, requestTimeoutMs: 3000 },
  });
  t.teardown(() => world.stop());
  const started = performance.now();
  await world.startOperator();
  await until('the honest host Ready', phaseIs(world, honest, 'Ready'), 180_000);
  t.log(`the honest host Ready ${Math.round(performance.now() - started)} ms after the operator started`);
  for (const [i, s] of SILENT.entries()) {
    const address = world.hosts.hosts[i]!.address;
    const status = await until(
      `${s.hostname} reports where it stopped`,
      async () => {
        const st = await world.status(address);
        return st?.lastError !== undefined && s.error.test(st.lastError) ? st : undefined;
      },
      120_000,
    );
    t.not(status.phase, 'Ready', s.hostname);
    const event = await until(`${s.hostname}'s event`, async () =>
      (await eventsAbout(world)).find(
        (e) => e.reason === 'InstanceSetupFailure' && e.message.includes(address) && s.error.test(e.message),
      ),
    );
    t.is(event.type, 'Warning', s.hostname);
  }
});

test('a stop while hosts are silent mid-protocol ends promptly: nothing waits for a deadline', async (t) => {
  // Host deadlines of an hour: only the stop's abort can end the silent hosts' steps. A stop that waited
  // for them would be cut at its 20 s bound per part, and that bound logs the part that overran.
  const { world, silent, logs } = await silentWorld({
    hostLimits: { handshakeTimeoutMs: 3_600_000, requestTimeoutMs: 3_600_000 },
  });
  t.teardown(() => world.stop());
  const rt = await world.startOperator();
  await until('two silent hosts hold both lanes', () =>
    Promise.resolve(silent.filter((h) => h.stats.connectionsAccepted > 0).length >= 2 ? true : undefined),
  );
  const started = performance.now();
  await rt.stop();
  t.log(`the stop took ${Math.round(performance.now() - started)} ms`);
  t.deepEqual(
    logs.filter((l) => l.includes('stop overran its bound')),
    [],
    'every part stopped by itself',
  );
});
