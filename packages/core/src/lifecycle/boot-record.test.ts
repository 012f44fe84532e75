import test from 'ava';
import { LEGACY_BOOT_TOLERANCE_MS, bootRecord, hostBootedSince } from './boot-record.js';

const ID = '3f2c1e0a-0000-4000-8000-000000000001';
const state = { bootId: ID, lastBootTime: '2026-01-01T08:00:00.1234567Z' };

test('a recorded boot id: booted exactly when the host reports another one', (t) => {
  t.is(bootRecord(state), ID);
  t.false(hostBootedSince(ID, { ...state, lastBootTime: '2026-01-01T08:00:03.0000001Z' }));
  t.true(hostBootedSince(ID, { ...state, bootId: 'f00d' }));
});

test('a boot time recorded by an older operator is compared with a tolerance, never as a string', (t) => {
  const recorded = '2026-01-01T08:00:00.1230000Z';
  t.false(hostBootedSince(recorded, state), 'microseconds apart: the same boot');
  const drifted = new Date(Date.parse(recorded) + 5_000).toISOString();
  t.false(hostBootedSince(recorded, { ...state, lastBootTime: drifted }), 'a clock correction of seconds');
  const later = new Date(Date.parse(recorded) + LEGACY_BOOT_TOLERANCE_MS + 1000).toISOString();
  t.true(hostBootedSince(recorded, { ...state, lastBootTime: later }));
});
