import test from 'ava';
import { upgradeFigures } from './upgrade-figures.js';

test('bytes per node are what each node received during the upgrade, on average; seconds per node the wall time shared', (t) => {
  const f = upgradeFigures({
    before: [140_000_000, 140_000_100],
    after: [162_000_000, 162_000_300],
    seconds: 9,
    changedBinaryCompressedBytes: 21_900_000,
  });
  t.deepEqual(f, { bytesPerNode: 22_000_100, changedBinaryCompressedBytes: 21_900_000, secondsPerNode: 4.5 });
});

test('figures need the same nodes before and after', (t) => {
  const m = { seconds: 1, changedBinaryCompressedBytes: 1 };
  t.throws(() => upgradeFigures({ ...m, before: [1], after: [2, 3] }), { message: /same nodes/ });
  t.throws(() => upgradeFigures({ ...m, before: [], after: [] }), { message: /at least one/ });
});
