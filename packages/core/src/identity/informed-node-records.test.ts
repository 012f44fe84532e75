import test from 'ava';
import type { CoreV1Api } from '@kubernetes/client-node';
import { systemClock } from '../kube/clock.js';
import { silentLogger } from '../kube/logger.js';
import type { WatchPort } from '../kube/watch-port.js';
import { InformedNodeRecords } from './informed-node-records.js';

/** An API server that answers the records' list with nothing, and counts lists and watches. */
function counting(): { core: CoreV1Api; watch: WatchPort; calls: string[] } {
  const calls: string[] = [];
  const core = {
    listNamespacedConfigMap: () => {
      calls.push('list');
      return Promise.resolve({ items: [], metadata: { resourceVersion: '1' } });
    },
  } as unknown as CoreV1Api;
  const watch: WatchPort = () => {
    calls.push('watch');
    return Promise.resolve({ abort: () => undefined });
  };
  return { core, watch, calls };
}

const records = (c: ReturnType<typeof counting>): InformedNodeRecords =>
  new InformedNodeRecords({ ...c, clock: systemClock, logger: silentLogger, namespace: 'wmco' });

test('the records start with one list and stop', async (t) => {
  const c = counting();
  const r = records(c);
  await r.start();
  t.true(r.synced);
  t.true(c.calls.includes('list'));
  r.stop();
});

test('stopped before it started (a stop during start-up), a start neither lists nor watches', async (t) => {
  const c = counting();
  const r = records(c);
  r.stop();
  await r.start();
  t.false(r.synced);
  t.deepEqual(c.calls, [], 'no watch outlives the stop');
});
