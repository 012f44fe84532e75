import test from 'ava';
import { clearCondition, noteNextRetry, setCondition } from './instance-conditions.js';
import { MemoryStatusStore, enterPhase } from './instance-status.js';

const T0 = new Date('2026-11-27T10:00:00Z');
const T1 = new Date('2026-11-27T10:05:00Z');
const pending = { type: 'PrivateKeyPending', reason: 'PrivateKeyNotAccepted', message: 'add the key' };

async function readyStore(): Promise<MemoryStatusStore> {
  const store = new MemoryStatusStore();
  await store.set(enterPhase(undefined, { address: '10.0.0.1', phase: 'Ready', now: T0 }));
  return store;
}

test('a condition is set once, keeps when it began, and is cleared by type', async (t) => {
  const store = await readyStore();
  t.true(await setCondition(store, '10.0.0.1', pending, T0));
  t.false(await setCondition(store, '10.0.0.1', pending, T1), 'the same condition writes nothing');
  t.true(await setCondition(store, '10.0.0.1', { ...pending, message: 'other' }, T1));
  t.deepEqual(store.get('10.0.0.1')?.conditions, [{ ...pending, message: 'other', since: T0.toISOString() }]);
  t.true(await clearCondition(store, '10.0.0.1', 'PrivateKeyPending'));
  t.is(store.get('10.0.0.1')?.conditions, undefined);
  t.false(await clearCondition(store, '10.0.0.1', 'PrivateKeyPending'));
});

test('conditions of other types stay when one is cleared, and survive phase changes', async (t) => {
  const store = await readyStore();
  await setCondition(store, '10.0.0.1', pending, T0);
  await setCondition(store, '10.0.0.1', { type: 'ChangeIgnored', reason: 'R', message: 'm' }, T0);
  await clearCondition(store, '10.0.0.1', 'PrivateKeyPending');
  const upgraded = enterPhase(store.get('10.0.0.1'), { address: '10.0.0.1', phase: 'Upgrading', now: T1 });
  t.deepEqual(
    upgraded.conditions?.map((c) => c.type),
    ['ChangeIgnored'],
  );
});

test('no status, no condition: nothing is invented', async (t) => {
  const store = new MemoryStatusStore();
  t.false(await setCondition(store, '10.0.0.9', pending, T0));
  t.is(store.get('10.0.0.9'), undefined);
});

test('the next retry is recorded on a Failed status only, and the next attempt drops it', async (t) => {
  const store = await readyStore();
  t.is(await noteNextRetry(store, '10.0.0.1', T1), undefined, 'a Ready instance is not retried');
  await store.set(
    enterPhase(store.get('10.0.0.1'), {
      address: '10.0.0.1',
      phase: 'Failed',
      now: T0,
      extra: { lastError: 'x' },
    }),
  );
  t.is((await noteNextRetry(store, '10.0.0.1', T1))?.nextRetry, T1.toISOString());
  const retrying = enterPhase(store.get('10.0.0.1'), { address: '10.0.0.1', phase: 'Connecting', now: T1 });
  t.is(retrying.nextRetry, undefined);
  t.is(retrying.lastError, 'x', 'the error stays while it retries');
});
