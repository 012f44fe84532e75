import test from 'ava';
import { soakFailures, soakFigures, type SoakFigures } from './soak-figures.js';
import {
  MAX_UPGRADES,
  prng,
  SILENT_MIN_MS,
  SILENT_SPAN_MS,
  SOAK_FAULT_KINDS,
  soakSchedule,
} from './soak-schedule.js';

const day = { hosts: 100, faults: 200, dayMs: 240_000 };

test('the same seed gives the same schedule; another seed another', (t) => {
  t.deepEqual(soakSchedule({ seed: 42, ...day }), soakSchedule({ seed: 42, ...day }));
  t.notDeepEqual(soakSchedule({ seed: 42, ...day }), soakSchedule({ seed: 43, ...day }));
  const a = prng(7);
  const b = prng(7);
  t.deepEqual([a(), a(), a()], [b(), b(), b()]);
});

test('the schedule is within its bounds: count, times in the day and sorted, hosts, silences, upgrades', (t) => {
  for (const seed of [1, 2, 3, 2 ** 31 - 1]) {
    const s = soakSchedule({ seed, ...day });
    t.is(s.length, day.faults);
    for (const [i, f] of s.entries()) {
      t.true(Number.isInteger(f.atMs) && f.atMs >= 0 && f.atMs < day.dayMs);
      t.true(i === 0 || s[i - 1]!.atMs <= f.atMs);
      t.true(Number.isInteger(f.host) && f.host >= 0 && f.host < day.hosts);
      t.true(f.silentMs >= SILENT_MIN_MS && f.silentMs < SILENT_MIN_MS + SILENT_SPAN_MS);
      t.true(SOAK_FAULT_KINDS.includes(f.kind));
    }
    t.true(s.filter((f) => f.kind === 'upgrade').length <= MAX_UPGRADES);
  }
  // 200 draws over ten kinds: every kind shows up but the capped one may not.
  const kinds = new Set(soakSchedule({ seed: 5, ...day }).map((f) => f.kind));
  t.true(SOAK_FAULT_KINDS.filter((k) => k !== 'upgrade').every((k) => kinds.has(k)));
  t.deepEqual(soakSchedule({ seed: 5, ...day, faults: 0 }), []);
  t.throws(() => soakSchedule({ seed: 5, ...day, hosts: 0 }));
  t.throws(() => soakSchedule({ seed: 5, ...day, dayMs: 0 }));
});

const measured = {
  hosts: 100,
  faults: 40,
  stuck: [],
  partial: [],
  rssStartBytes: 200 * 2 ** 20,
  rssEndBytes: 210.04 * 2 ** 20,
  maxLaneWaitMs: 12_345.6,
};

test('the figures are the JSON line the bench prints, with exactly its keys', (t) => {
  const f = soakFigures(measured);
  t.deepEqual(f, {
    hosts: 100,
    faults: 40,
    stuckNodes: 0,
    partialNodes: 0,
    rssStartMiB: 200,
    rssEndMiB: 210,
    maxLaneWaitSeconds: 12.346,
  });
  t.deepEqual(Object.keys(JSON.parse(JSON.stringify(f)) as object), [
    'hosts',
    'faults',
    'stuckNodes',
    'partialNodes',
    'rssStartMiB',
    'rssEndMiB',
    'maxLaneWaitSeconds',
  ]);
  t.is(soakFigures({ ...measured, stuck: ['a', 'b'], partial: ['c'] }).stuckNodes, 2);
});

test('a run passes only with no stuck or partial node and RSS within 10 % of the start', (t) => {
  const ok: SoakFigures = soakFigures(measured);
  t.deepEqual(soakFailures(ok), []);
  t.deepEqual(soakFailures({ ...ok, rssEndMiB: 220 }), []);
  t.deepEqual(soakFailures({ ...ok, stuckNodes: 1 }), ['1 node(s) not Ready at the end']);
  t.deepEqual(soakFailures({ ...ok, partialNodes: 2 }), ['2 Ready node(s) without their full configuration']);
  t.deepEqual(soakFailures({ ...ok, rssEndMiB: 220.1 }), [
    'operator RSS grew from 200 MiB to 220.1 MiB (more than 1.1×)',
  ]);
  t.is(soakFailures({ ...ok, stuckNodes: 1, partialNodes: 1, rssEndMiB: 300 }).length, 3);
});
