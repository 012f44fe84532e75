import test from 'ava';
import { MaxUnavailableError, parseMaxUnavailable, resolveMaxUnavailable } from './max-unavailable.js';

test('maxUnavailable: numbers and percentages', (t) => {
  t.deepEqual(parseMaxUnavailable('1'), { kind: 'count', count: 1 });
  t.deepEqual(parseMaxUnavailable(3), { kind: 'count', count: 3 });
  t.deepEqual(parseMaxUnavailable(' 25% '), { kind: 'percent', percent: 25 });
  t.deepEqual(parseMaxUnavailable('100%'), { kind: 'percent', percent: 100 });
});

test('maxUnavailable: zero, negatives, fractions and junk are refused with a clear message', (t) => {
  for (const bad of ['0', '0%', '-1', '1.5', '101%', 'two', '', '%', '1e3']) {
    const err = t.throws(() => parseMaxUnavailable(bad), { instanceOf: MaxUnavailableError }, bad);
    t.regex(err.message, /whole number ≥ 1 or a percentage/);
  }
});

test('a percentage of the Windows nodes is rounded down, but never below one', (t) => {
  const p = (percent: number): { kind: 'percent'; percent: number } => ({ kind: 'percent', percent });
  t.is(resolveMaxUnavailable(p(25), 8), 2);
  t.is(resolveMaxUnavailable(p(50), 5), 2);
  t.is(resolveMaxUnavailable(p(10), 4), 1);
  t.is(resolveMaxUnavailable(p(100), 4), 4);
  t.is(resolveMaxUnavailable(p(25), 0), 1);
  t.is(resolveMaxUnavailable({ kind: 'count', count: 2 }, 1), 2);
});
