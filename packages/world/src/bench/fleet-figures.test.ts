import test from 'ava';
import { fleetFigures } from './fleet-figures.js';

test('the bound is the waves the budget allows times one node upgraded alone', (t) => {
  const f = fleetFigures({
    nodes: 200,
    maxUnavailable: 20,
    seconds: 30.1234,
    oneNodeSeconds: 2.5,
    maxUnavailableSeen: 20,
  });
  t.deepEqual(f, {
    nodes: 200,
    maxUnavailable: 20,
    seconds: 30.123,
    boundSeconds: 25,
    maxUnavailableSeen: 20,
  });
  // A last, partial wave still takes one node's time.
  t.is(
    fleetFigures({ nodes: 201, maxUnavailable: 20, seconds: 1, oneNodeSeconds: 2, maxUnavailableSeen: 1 })
      .boundSeconds,
    22,
  );
  t.throws(() =>
    fleetFigures({ nodes: 10, maxUnavailable: 0, seconds: 1, oneNodeSeconds: 1, maxUnavailableSeen: 0 }),
  );
});
