import test from 'ava';
import { eventsAbout, phaseIs, testWorld, until } from './world-fixture.js';

// Issue 28: the output bound counted only an unfinished line, so a host printing short lines made the
// operator read 525 MB in 60 s, until the 15-minute command timeout, again on every retry.

test('a host printing endless short lines on every call fails each join at the output bound; the honest host joins', async (t) => {
  const bound = 1024 * 1024;
  const { world } = await testWorld([{ hostname: 'FLOOD' }, { hostname: 'HONEST' }], {
    parallelJoins: 1,
    driftRepairIntervalMs: 0,
    hostLimits: { maxOutputBytes: bound },
  });
  t.teardown(() => world.stop());
  const [flood, honest] = world.hosts.hosts;
  flood!.sim.faults.endlessOutputAlways = 'lines';
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
  await world.startOperator();
  const event = await until('the flood host fails at the bound', async () =>
    (await eventsAbout(world)).find(
      (e) => e.reason === 'InstanceSetupFailure' && e.message.includes(flood!.address),
    ),
  );
  t.regex(event.message, /printed more than 1048576 bytes for one command; stopped reading and closed it/);
  await until('the honest host Ready', phaseIs(world, honest!.address, 'Ready'), 120_000);
  // Every exec of the flood host flooded; each was read to the bound and closed, so the host could write
  // at most the bound plus the SSH window (2 MiB) per exec, however many retries there were.
  const { execs, floodBytes } = flood!.sim.stats;
  t.true(execs >= 1);
  t.true(floodBytes <= execs * (bound + 3 * 1024 * 1024), `${floodBytes} bytes over ${execs} execs`);
});
