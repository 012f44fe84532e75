import test from 'ava';
import { OPERATOR_STATUS_KEY, storedOperatorConditions, storedStatuses } from './stored-statuses.js';

const good = {
  address: '10.0.0.1',
  phase: 'Ready',
  since: '2026-11-27T00:00:00.000Z',
  phaseSeconds: { Connecting: 1 },
  conditions: [{ type: 'ChangeIgnored', reason: 'R', message: 'm', since: '2026-11-27T00:00:00.000Z' }],
};

test('reads the statuses an earlier run wrote, with their conditions', (t) => {
  const data = { '10.0.0.1': JSON.stringify(good) };
  t.deepEqual(storedStatuses(data), [good]);
});

test('skips the operator key and whatever is not a status; drops malformed conditions', (t) => {
  const data = {
    [OPERATOR_STATUS_KEY]: JSON.stringify({ conditions: [] }),
    '10.0.0.2': 'not json',
    '10.0.0.3': JSON.stringify({ ...good, address: '10.0.0.9' }),
    '10.0.0.4': JSON.stringify([1]),
    '10.0.0.5': JSON.stringify({ ...good, address: '10.0.0.5', conditions: 'x', phaseSeconds: 3 }),
    '10.0.0.6': JSON.stringify({ ...good, address: '10.0.0.6', conditions: [null, { type: 1 }] }),
  };
  const out = storedStatuses(data);
  t.deepEqual(
    out.map((s) => s.address),
    ['10.0.0.5', '10.0.0.6'],
  );
  t.deepEqual(out[0]?.phaseSeconds, {});
  t.is(out[0]?.conditions, undefined);
  t.is(out[1]?.conditions, undefined);
});

test("reads the operator's conditions, skipping malformed ones", (t) => {
  const c = { type: 'Available', status: 'True', reason: 'A', message: 'm', lastTransitionTime: 'now' };
  const data = { [OPERATOR_STATUS_KEY]: JSON.stringify({ conditions: [c, { type: 'Degraded' }, 'x'] }) };
  t.deepEqual(storedOperatorConditions(data), [c]);
  t.deepEqual(storedOperatorConditions({ [OPERATOR_STATUS_KEY]: '{' }), []);
  t.deepEqual(storedOperatorConditions({}), []);
});
