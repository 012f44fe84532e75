import test from 'ava';
import { ConcurrencyBudget } from './service-disruption.js';

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

test('never more than max nodes at once; waiters run in order; errors release the slot', async (t) => {
  const budget = new ConcurrencyBudget(2);
  let now = 0;
  let most = 0;
  const order: string[] = [];
  const work =
    (name: string, fail = false) =>
    async (): Promise<string> => {
      now++;
      most = Math.max(most, now);
      order.push(name);
      await tick();
      now--;
      if (fail) throw new Error(`${name} failed`);
      return name;
    };
  const results = await Promise.allSettled(
    ['a', 'b', 'c', 'd', 'e'].map((n) => budget.disrupt(n, work(n, n === 'b'))),
  );
  t.is(most, 2);
  t.is(budget.peak, 2);
  t.deepEqual(order, ['a', 'b', 'c', 'd', 'e']);
  t.is(results.filter((r) => r.status === 'rejected').length, 1);
  t.is(await budget.disrupt('f', work('f')), 'f', 'the failed work gave its slot back');
  t.throws(() => new ConcurrencyBudget(0));
});
