import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { BlockPool } from './block-pool.js';

test('a block given back is the next one taken of its size; other sizes get new memory', (t) => {
  const pool = new BlockPool();
  const a = pool.take(1024);
  pool.give(a);
  t.is(pool.freeBlocks, 1);
  t.not(pool.take(2048), a);
  t.is(pool.take(1024), a);
  t.is(pool.freeBlocks, 0);
  pool.trim();
});

test('at most maxFreePerSize free blocks of a size are kept', (t) => {
  const pool = new BlockPool(2);
  for (let i = 0; i < 5; i++) pool.give(Buffer.allocUnsafe(64));
  t.is(pool.freeBlocks, 2);
  pool.trim();
  t.is(pool.freeBlocks, 0);
});

test('free blocks are dropped after the idle time, and kept while blocks keep coming back', async (t) => {
  const pool = new BlockPool(32, 120);
  pool.give(Buffer.allocUnsafe(64));
  await sleep(80);
  pool.give(Buffer.allocUnsafe(64)); // restarts the idle time
  await sleep(80);
  t.is(pool.freeBlocks, 2);
  await sleep(120);
  t.is(pool.freeBlocks, 0);
});
