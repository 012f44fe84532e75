import { isDeepStrictEqual } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import { machineDeletedMidJoin } from './fault-matrix-machine.js';
import { FaultMatrixWorld } from './fault-matrix-world.js';
import { FAULT_ROWS } from './fault-matrix-rows.js';
import type { FaultRow } from './fault-row.js';
import { hostConfiguration, type HostConfiguration } from './host-configuration.js';
import { logOnFailure } from './log-on-failure.test-helper.js';
import { until } from './world-fixture.js';

// The fault matrix (issue 28, item 5): one test per row of fault-matrix-rows.ts. For every row: the target
// ends with exactly the configuration of a host taken through the same flow without a fault (files,
// folders, services and their settings): nothing half-written, nothing missing or left over; it rebooted
// only as often as its flow and the fault itself made it; and the one join lane was released (a host
// listed afterwards joins).

/** Worlds running at once: enough to overlap the rows' waits, few enough for a two-core machine. */
const AT_ONCE = 3;
let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(work: () => Promise<T>): Promise<T> {
  while (running >= AT_ONCE) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function configurationOf(h: FaultMatrixWorld['target']): HostConfiguration {
  return hostConfiguration(h.sim, h.spec.hostname, h.address);
}

async function runRow(t: ExecutionContext, m: FaultMatrixWorld, row: FaultRow): Promise<void> {
  const { target, reference, late } = m;
  await m.startOperator();
  let bootsBefore = 0;
  if (row.phase === 'join') {
    const injecting = row.inject(m);
    await m.list(target);
    await injecting;
    await m.ready(target);
  } else {
    await m.list(target, reference);
    await m.ready(target);
    await m.ready(reference);
    bootsBefore = target.sim.stats.reboots;
    const injecting = row.inject(m);
    await m.startPhase(row.phase);
    await injecting;
  }
  await m.phaseDone(row.phase, bootsBefore);
  t.true(row.fired(m), 'the fault happened');
  // The one join lane is free: hosts listed now join. A removal's expected result is the reference removed
  // without a fault (the removal keeps the operator's work area and the kubelet's certificates, as upstream).
  await m.list(...(row.phase === 'removal' ? [late] : [target, reference, late]));
  await m.ready(late);
  if (row.phase === 'removal') await m.removed(reference);
  else await m.ready(reference);
  // The kubelets' serving certificates arrive after Ready (their CSRs are approved on their own): wait
  // until the two hosts' configurations agree, then compare (a difference that stays shows in the diff).
  await until(
    'the target and the reference to settle',
    () =>
      Promise.resolve(isDeepStrictEqual(configurationOf(target), configurationOf(reference)) || undefined),
    60_000,
  ).catch(() => undefined);
  const expected = configurationOf(reference);
  t.log(`compared ${expected.paths.length} paths and ${expected.services.length} services`);
  t.deepEqual(configurationOf(target), expected, 'the target holds exactly the expected configuration');
  const flowReboots = reference.sim.stats.reboots + (row.phase === 'reboot' ? 1 : 0);
  t.is(
    target.sim.stats.reboots - (row.faultReboots ?? 0),
    flowReboots,
    'no reboot beyond the flow and the fault',
  );
}

for (const row of FAULT_ROWS) {
  test(row.name, async (t) => {
    await slot(async () => {
      // Counted from the row's own start, not from its wait for a slot.
      t.timeout(300_000);
      const m = await FaultMatrixWorld.start(row);
      t.teardown(() => m.world.stop());
      await logOnFailure(t, m.logs, () => runRow(t, m, row));
    });
  });
}

// A user deleting a Machine mid-join: a world of Machines, not of listed hosts (fault-matrix-machine.ts).
test('join: a user deletes the Machine mid-join', async (t) => {
  await slot(async () => {
    t.timeout(300_000);
    await machineDeletedMidJoin(t);
  });
});
