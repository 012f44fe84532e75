import test from 'ava';
import { microTimeOf, normalizeMicroTime, normalizeTime } from './go-time.js';

test('metav1.Time: RFC3339 in, UTC whole seconds out (fractions truncated, offsets applied)', (t) => {
  t.is(normalizeTime('2026-11-27T09:00:00Z'), '2026-11-27T09:00:00Z');
  t.is(normalizeTime('2026-11-27T09:00:00.999Z'), '2026-11-27T09:00:00Z');
  t.is(normalizeTime('2026-11-27T09:00:00.123456789+02:00'), '2026-11-27T07:00:00Z');
  t.is(normalizeTime('2026-11-27T00:30:00-01:00'), '2026-11-27T01:30:00Z');
});

test('metav1.Time: what time.Parse(RFC3339) refuses, with its message', (t) => {
  t.throws(() => normalizeTime('2026-11-27 09:00:00Z'), {
    message: /^parsing time "2026-11-27 09:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse /,
  });
  t.throws(() => normalizeTime('2026-11-27T09:00:00'), {
    message: 'parsing time "2026-11-27T09:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"',
  });
  t.throws(() => normalizeTime('2026-13-27T09:00:00Z'), { message: /month out of range/ });
});

test('metav1.MicroTime: exactly six fractional digits, UTC out', (t) => {
  t.is(normalizeMicroTime('2026-11-27T09:00:00.123456Z'), '2026-11-27T09:00:00.123456Z');
  t.is(normalizeMicroTime('2026-11-27T10:00:00.000001+01:00'), '2026-11-27T09:00:00.000001Z');
  t.throws(() => normalizeMicroTime('2026-11-27T09:00:00.123Z'), {
    message:
      'parsing time "2026-11-27T09:00:00.123Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".123Z" as ".000000"',
  });
  t.throws(() => normalizeMicroTime('2026-11-27T09:00:00Z'), { message: /cannot parse "Z" as ".000000"/ });
  t.throws(() => normalizeMicroTime('2026-11-27T09:00:00.123456789Z'), {
    message: /cannot parse "789Z" as "Z07:00"/,
  });
});

test('microTimeOf formats a Date the way MicroTime encodes', (t) => {
  const s = microTimeOf(new Date(Date.UTC(2026, 10, 27, 9, 0, 0, 123)));
  t.is(s, '2026-11-27T09:00:00.123000Z');
  t.is(normalizeMicroTime(s), s);
});
