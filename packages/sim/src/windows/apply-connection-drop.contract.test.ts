// A connection that drops in the middle of an apply (not an upload), against a simulated host over real SSH.
import test from 'ava';
import { converge, plan } from '@wmco/core';
import { observeQueryFor } from '@wmco/core/internal';
import { Payload, nodeSpec, startHostWorld } from './windows-host-fixture.js';

test('a connection dropped mid-apply: the host finishes the apply, the answer is lost, the next converge is empty', async (t) => {
  const w = await startHostWorld({ costs: { rebootMs: 100 } });
  t.teardown(() => w.stop());
  const payload = new Payload();
  const spec = nodeSpec(payload);
  w.sim.faults.dropDuringApplyAtStep = 5;
  await t.throwsAsync(converge(w.host, spec, payload.content));
  t.false('dropDuringApplyAtStep' in w.sim.faults, 'the link did drop');
  t.is(w.sim.stats.reboots, 0, 'a dropped link is not a reboot');
  // The module's process outlived the session (a non-pty exec is not in a job that dies with it).
  const fresh = w.connect();
  t.teardown(() => fresh.close());
  const state = await fresh.observe(observeQueryFor(spec));
  t.deepEqual(plan(state, spec).steps, [], 'every step of the interrupted apply was done');
});

test('a reboot mid-apply is counted once in the host statistics', async (t) => {
  const w = await startHostWorld({ costs: { rebootMs: 100 } });
  t.teardown(() => w.stop());
  const payload = new Payload();
  const spec = nodeSpec(payload);
  w.sim.faults.rebootDuringApplyAtStep = 5;
  await t.throwsAsync(converge(w.host, spec, payload.content));
  const fresh = w.connect();
  t.teardown(() => fresh.close());
  const state = await fresh.observe(observeQueryFor(spec));
  t.is(w.sim.stats.reboots, 1);
  t.true(plan(state, spec).steps.length > 0, 'power was lost before the apply ended');
});

test('power lost after a file was placed: the resumed apply leaves no staged copy behind', async (t) => {
  const w = await startHostWorld({ costs: { rebootMs: 100 } });
  t.teardown(() => w.stop());
  const payload = new Payload();
  const spec = nodeSpec(payload);
  const steps = plan(await w.host.observe(observeQueryFor(spec)), spec).steps;
  const placedAt = steps.findIndex((s) => s.kind === 'placeFile');
  t.true(placedAt >= 0 && placedAt + 1 < steps.length, 'the plan places a file before its last step');
  w.sim.faults.rebootDuringApplyAtStep = placedAt + 1;
  await t.throwsAsync(converge(w.host, spec, payload.content));
  t.is(w.sim.stats.reboots, 1, 'power was lost');
  const stagedDir = 'C:\\ProgramData\\wmco\\staging';
  const placed = steps[placedAt] as Extract<(typeof steps)[number], { kind: 'placeFile' }>;
  t.false(w.sim.model.files.isFile(`${stagedDir}\\${placed.sha256}`), 'the placed file is no longer staged');
  const fresh = w.connect();
  t.teardown(() => fresh.close());
  const again = await converge(fresh, spec, payload.content);
  t.false(
    again.plan.steps.some((s) => s.kind === 'placeFile' && s.sha256 === placed.sha256),
    'the resumed plan does not place that file again',
  );
  t.deepEqual(plan(await fresh.observe(observeQueryFor(spec)), spec).steps, []);
  t.deepEqual(
    w.sim.model.files.list(stagedDir).map((e) => e.name),
    [],
    'nothing is left in the staging folder',
  );
});
