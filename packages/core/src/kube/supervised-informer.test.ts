import test from 'ava';
import { FakeClock } from './fake-clock.js';
import { ObjectCache } from './object-cache.js';
import { SupervisedInformer } from './supervised-informer.js';
import type { KubeObject, WatchPort } from './watch-port.js';

interface Cm extends KubeObject {
  data?: Record<string, string>;
}
const cm = (name: string, rv: string): Cm => ({ metadata: { name, namespace: 'ns', resourceVersion: rv } });
const flush = () => new Promise((r) => setImmediate(r));

/** A scripted API: list returns `state.items`; each watch is recorded so the test can drive it. */
function fakeApi() {
  const state = { items: [cm('a', '1')], rv: '1', lists: 0, listError: undefined as Error | undefined };
  const watches: {
    query: Record<string, unknown>;
    event: (t: string, o: unknown) => void;
    done: (e?: unknown) => void;
    aborted: boolean;
  }[] = [];
  const watch: WatchPort = (_path, query, onEvent, onDone) => {
    const w = { query, event: onEvent, done: onDone, aborted: false };
    watches.push(w);
    return Promise.resolve({ abort: () => (w.aborted = true) });
  };
  const list = () => {
    state.lists++;
    if (state.listError) return Promise.reject(state.listError);
    return Promise.resolve({ items: [...state.items], metadata: { resourceVersion: state.rv } });
  };
  return { state, watches, watch, list };
}

function setup() {
  const clock = new FakeClock();
  const api = fakeApi();
  const events: string[] = [];
  const reasons: string[] = [];
  const inf = new SupervisedInformer<Cm>({
    name: 'cm',
    path: '/api/v1/namespaces/ns/configmaps',
    list: api.list,
    watch: api.watch,
    labelSelector: 'app=x',
    clock,
    relistIntervalMs: 60_000,
    watchdogMs: 20_000,
    backoffBaseMs: 100,
    onRestart: (r) => reasons.push(r),
  });
  inf.on('add', (o) => events.push(`add ${o.metadata?.name}`));
  inf.on('update', (o) => events.push(`update ${o.metadata?.name}`));
  inf.on('delete', (o) => events.push(`delete ${o.metadata?.name}`));
  return { clock, api, events, reasons, inf };
}

test('lists, syncs, then follows the watch from the list resourceVersion with the selectors', async (t) => {
  const { api, events, inf } = setup();
  await inf.start();
  await flush();
  t.true(inf.synced);
  t.deepEqual(events, ['add a']);
  t.is(api.watches.length, 1);
  t.like(api.watches[0]!.query, { resourceVersion: '1', labelSelector: 'app=x', allowWatchBookmarks: true });
  api.watches[0]!.event('ADDED', cm('b', '2'));
  api.watches[0]!.event('MODIFIED', cm('a', '3'));
  api.watches[0]!.event('DELETED', cm('b', '4'));
  t.deepEqual(events, ['add a', 'add b', 'update a', 'delete b']);
  t.is(inf.get('a', 'ns')?.metadata?.resourceVersion, '3');
  inf.stop();
});

test('a watch error restarts with backoff and resumes from the last resourceVersion', async (t) => {
  const { api, clock, inf, reasons } = setup();
  await inf.start();
  await flush();
  api.watches[0]!.event('MODIFIED', cm('a', '7'));
  api.watches[0]!.done(Object.assign(new Error('terminated'), { name: 'TypeError' }));
  await flush();
  t.is(api.watches.length, 1, 'waits for the backoff');
  clock.advance(150);
  await flush();
  t.is(api.watches.length, 2);
  t.is(api.watches[1]!.query['resourceVersion'], '7');
  t.is(api.state.lists, 1, 'no relist needed');
  t.deepEqual(reasons, ['watch failed']);
  inf.stop();
});

test('410 Gone relists and reconciles deletions that happened meanwhile', async (t) => {
  const { api, events, inf } = setup();
  await inf.start();
  await flush();
  api.state.items = [cm('c', '9')];
  api.state.rv = '9';
  api.watches[0]!.event('ERROR', { kind: 'Status', code: 410 });
  api.watches[0]!.done();
  await flush();
  t.is(api.state.lists, 2);
  t.deepEqual(events, ['add a', 'delete a', 'add c']);
  t.is(api.watches.at(-1)!.query['resourceVersion'], '9');
  inf.stop();
});

test('a failing list keeps retrying with growing delays until it works', async (t) => {
  const { api, clock, inf } = setup();
  api.state.listError = new Error('connect ECONNREFUSED');
  const started = inf.start();
  await flush();
  clock.advance(120);
  await flush();
  clock.advance(240);
  await flush();
  t.is(api.state.lists, 3);
  t.false(inf.synced);
  api.state.listError = undefined;
  clock.advance(480);
  await flush();
  await started;
  t.true(inf.synced);
  inf.stop();
});

test('a silent watch is restarted by the watchdog with a relist', async (t) => {
  const { api, clock, inf, reasons } = setup();
  await inf.start();
  await flush();
  clock.advance(25_000);
  await flush();
  t.true(api.watches[0]!.aborted);
  t.is(api.state.lists, 2);
  t.deepEqual(reasons, ['no event within the watchdog period']);
  inf.stop();
});

test('relists periodically even when events flow', async (t) => {
  const { api, clock, inf } = setup();
  await inf.start();
  await flush();
  for (let i = 0; i < 7; i++) {
    clock.advance(10_000);
    api.watches.at(-1)!.event('BOOKMARK', { metadata: { resourceVersion: String(10 + i) } });
    await flush();
  }
  t.is(api.state.lists, 2);
  inf.stop();
});

test('stop aborts the watch and nothing restarts afterwards', async (t) => {
  const { api, clock, inf } = setup();
  await inf.start();
  await flush();
  inf.stop();
  t.true(api.watches[0]!.aborted);
  api.watches[0]!.done(new Error('The user aborted a request.'));
  clock.advance(120_000);
  await flush();
  t.is(api.watches.length, 1);
  t.is(api.state.lists, 1);
});

test('the revision changes with every add, update and delete, and only then', (t) => {
  const cache = new ObjectCache<KubeObject>({ add: [], update: [], delete: [] });
  const r0 = cache.revision;
  cache.upsert({ metadata: { name: 'a', resourceVersion: '1' } });
  const r1 = cache.revision;
  t.not(r1, r0);
  cache.upsert({ metadata: { name: 'a', resourceVersion: '1' } });
  t.is(cache.revision, r1, 'the same resourceVersion again is no change');
  cache.upsert({ metadata: { name: 'a', resourceVersion: '2' } });
  const r2 = cache.revision;
  t.not(r2, r1);
  cache.replace([]);
  t.not(cache.revision, r2);
});

test('the cache keeps no managedFields and what the transform keeps, from the list and the watch', async (t) => {
  const clock = new FakeClock();
  const api = fakeApi();
  const fat = (name: string, rv: string): Cm => ({
    metadata: { ...cm(name, rv).metadata, managedFields: [{ manager: 'kubelet' }] } as NonNullable<
      Cm['metadata']
    >,
    data: { kept: 'yes', dropped: 'x'.repeat(1000) },
  });
  api.state.items = [fat('a', '1')];
  const seen: Cm[] = [];
  const inf = new SupervisedInformer<Cm>({
    name: 'cm',
    path: '/api/v1/namespaces/ns/configmaps',
    list: api.list,
    watch: api.watch,
    clock,
    transform: (o) => ({ metadata: o.metadata ?? {}, data: { kept: o.data?.['kept'] ?? '' } }),
  });
  inf.on('add', (o) => seen.push(o));
  await inf.start();
  await flush();
  api.watches[0]!.event('ADDED', fat('b', '2'));
  const expected = (name: string, rv: string): Cm => ({ ...cm(name, rv), data: { kept: 'yes' } });
  t.deepEqual(inf.get('a', 'ns'), expected('a', '1'));
  t.deepEqual(inf.get('b', 'ns'), expected('b', '2'));
  t.deepEqual(seen, [expected('a', '1'), expected('b', '2')], 'handlers see the kept objects');
  inf.stop();
});

test('a stop before the first list succeeded ends the start (unsynced), so a shutdown during sync ends', async (t) => {
  const { api, clock, inf } = setup();
  api.state.listError = new Error('connect ECONNREFUSED');
  let ended = false;
  const started = inf.start().then(() => (ended = true));
  await flush();
  t.false(ended);
  inf.stop();
  await started;
  t.false(inf.synced);
  // Nothing retries after the stop.
  const lists = api.state.lists;
  clock.advance(60_000);
  await flush();
  t.is(api.state.lists, lists);
});
