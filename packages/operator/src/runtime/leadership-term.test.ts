import test from 'ava';
import type { Logger } from '@wmco/core';
import { LeadershipTerm, type TermWork } from './leadership-term.js';

const none = (): void => undefined;
const silentLogger: Logger = { debug: none, info: none, warn: none, error: none, child: () => silentLogger };

/** Work whose start waits (informers that cannot sync) until its stop, as a real informer start does. */
function syncingWork(): TermWork & { log: string[] } {
  const log: string[] = [];
  let stopped: () => void = () => undefined;
  const synced = new Promise<void>((r) => (stopped = r));
  return {
    log,
    start: async () => {
      log.push('start');
      await synced;
      log.push('start ended');
    },
    stop: () => {
      log.push('stop');
      stopped();
      return Promise.resolve();
    },
  };
}

test('a term that ends while its start still syncs stops at once, and ends', async (t) => {
  const work = syncingWork();
  const term = new LeadershipTerm(() => work);
  const signal = new AbortController();
  term.begin(signal.signal, silentLogger);
  t.false(term.fence.signal.aborted);
  signal.abort();
  // The fence aborts with the term, synchronously: nothing can start a host step in between.
  t.true(term.fence.signal.aborted);
  await term.ended;
  t.deepEqual(work.log, ['start', 'stop', 'start ended']);
});

test('a term begun with an already aborted signal ends at once', async (t) => {
  const work = syncingWork();
  const term = new LeadershipTerm(() => work);
  term.begin(AbortSignal.abort(), silentLogger);
  await term.ended;
  t.true(term.fence.signal.aborted);
  t.deepEqual(work.log, ['start', 'stop', 'start ended']);
});
