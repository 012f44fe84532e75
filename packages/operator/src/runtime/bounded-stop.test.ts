import test from 'ava';
import type { Logger } from '@wmco/core';
import { boundedStop } from './bounded-stop.js';

function collecting(): Logger & { errors: Record<string, unknown>[] } {
  const none = (): void => undefined;
  const l = {
    errors: [] as Record<string, unknown>[],
    debug: none,
    info: none,
    warn: none,
    error: (o: Record<string, unknown>) => void l.errors.push(o),
    child: () => l,
  };
  return l;
}

test('a part that never stops is logged by name after its bound, and the later parts still stop', async (t) => {
  const logger = collecting();
  const stopped: string[] = [];
  const overran = await boundedStop(
    [
      ['informers', () => new Promise(() => undefined)],
      ['queues', () => Promise.reject(new Error('boom'))],
      ['leases', () => Promise.resolve(stopped.push('leases'))],
    ],
    logger,
    50,
  );
  t.deepEqual(overran, ['informers', 'queues']);
  t.deepEqual(stopped, ['leases']);
  t.like(logger.errors[0], { part: 'informers', boundMs: 50 });
  t.like(logger.errors[1], { part: 'queues', err: 'Error: boom' });
});
