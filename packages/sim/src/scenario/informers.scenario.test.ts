import test from 'ava';
import * as k8s from '@kubernetes/client-node';
import { scenarioEnv, uniqueName, waitFor, type ScenarioEnv } from './scenario-env.js';

// Informers (ListWatch) against the server named by WMCO_SCENARIO_KUBECONFIG, or the simulated cluster.
// The fault-hook tests (dropped watch, 410) need the simulated cluster and are skipped elsewhere.

let env: ScenarioEnv;
let ns: string;

test.before(async () => {
  env = await scenarioEnv();
  ns = uniqueName('scn-inf');
  await env.core.createNamespace({ body: { metadata: { name: ns } } });
});

test.after.always(async () => {
  await env.core.deleteNamespace({ name: ns }).catch(() => undefined);
  await env.stop();
});

interface Recorder {
  readonly events: string[];
  lists: number;
  informer: k8s.ListWatch<k8s.V1ConfigMap>;
}

function configMapInformer(labelSelector?: string, fieldSelector?: string): Recorder {
  const rec = { events: [] as string[], lists: 0 } as Recorder;
  const listFn = (): Promise<k8s.V1ConfigMapList> => {
    rec.lists += 1;
    return env.core.listNamespacedConfigMap({
      namespace: ns,
      ...(labelSelector ? { labelSelector } : {}),
      ...(fieldSelector ? { fieldSelector } : {}),
    });
  };
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  rec.informer = new k8s.ListWatch(path, new k8s.Watch(env.kc), listFn, false, labelSelector, fieldSelector);
  for (const verb of ['add', 'update', 'delete'] as const) {
    rec.informer.on(verb, (o) => rec.events.push(`${verb}:${o.metadata?.name ?? ''}`));
  }
  return rec;
}

async function createCm(name: string, labels: Record<string, string>): Promise<k8s.V1ConfigMap> {
  return env.core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name, labels }, data: { k: 'v' } },
  });
}

const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

test.serial(
  'informers with label and field selectors see only matching objects, with selector transitions',
  async (t) => {
    const byLabel = configMapInformer('app=web,tier notin (x)');
    const byField = configMapInformer(undefined, 'metadata.name=sel-b');
    await createCm('sel-a', { app: 'web' });
    await byLabel.informer.start();
    await byField.informer.start();
    t.deepEqual(byLabel.events, ['add:sel-a']);
    await createCm('sel-b', { app: 'db' });
    await waitFor('field informer add', () => (byField.events.includes('add:sel-b') ? true : undefined));
    // sel-b starts matching the label selector: the watch reports ADDED; sel-a stops matching: DELETED.
    await env.core.patchNamespacedConfigMap(
      { name: 'sel-b', namespace: ns, body: { metadata: { labels: { app: 'web' } } } },
      mergePatch,
    );
    await env.core.patchNamespacedConfigMap(
      { name: 'sel-a', namespace: ns, body: { metadata: { labels: { app: 'other' } } } },
      mergePatch,
    );
    await waitFor('label transitions', () => (byLabel.events.includes('delete:sel-a') ? true : undefined));
    t.deepEqual(byLabel.events, ['add:sel-a', 'add:sel-b', 'delete:sel-a']);
    t.deepEqual(
      byLabel.informer.list(ns).map((o) => o.metadata?.name),
      ['sel-b'],
    );
    t.deepEqual(byField.events, ['add:sel-b', 'update:sel-b']);
    await byLabel.informer.stop();
    await byField.informer.stop();
  },
);

test.serial(
  'watch events: a no-op update sends none; a delete with finalizers is MODIFIED, then DELETED (rows 4, 5)',
  async (t) => {
    const rec = configMapInformer('events=yes');
    const deleting: boolean[] = [];
    rec.informer.on('update', (o) => deleting.push(o.metadata?.deletionTimestamp !== undefined));
    await rec.informer.start();
    const cm = await createCm('ev', { events: 'yes' });
    await waitFor('add', () => (rec.events.includes('add:ev') ? true : undefined));
    await env.core.replaceNamespacedConfigMap({ name: 'ev', namespace: ns, body: cm });
    await env.core.patchNamespacedConfigMap(
      { name: 'ev', namespace: ns, body: { metadata: { finalizers: ['example.com/hold'] } } },
      mergePatch,
    );
    await env.core.deleteNamespacedConfigMap({ name: 'ev', namespace: ns });
    await waitFor('deleting update', () => (deleting.includes(true) ? true : undefined));
    await env.core.patchNamespacedConfigMap(
      { name: 'ev', namespace: ns, body: { metadata: { finalizers: null } } },
      mergePatch,
    );
    await waitFor('delete', () => (rec.events.includes('delete:ev') ? true : undefined));
    // add, finalizer added, deletionTimestamp set, deleted: the no-op replace produced nothing.
    t.deepEqual(rec.events, ['add:ev', 'update:ev', 'update:ev', 'delete:ev']);
    t.deepEqual(deleting, [false, true]);
    await rec.informer.stop();
  },
);

test.serial(
  'a raw watch sees no event for a no-op update: the first MODIFIED is the real change (row 4)',
  async (t) => {
    const cm = await createCm('raw-noop', {});
    const seen: { type: string; labels?: Record<string, string> }[] = [];
    const req = await new k8s.Watch(env.kc).watch(
      `/api/v1/namespaces/${ns}/configmaps`,
      { resourceVersion: cm.metadata?.resourceVersion ?? '', fieldSelector: 'metadata.name=raw-noop' },
      (type, obj: k8s.V1ConfigMap) =>
        seen.push({ type, ...(obj.metadata?.labels ? { labels: obj.metadata.labels } : {}) }),
      () => undefined,
    );
    await env.core.replaceNamespacedConfigMap({ name: 'raw-noop', namespace: ns, body: cm });
    await env.core.patchNamespacedConfigMap(
      { name: 'raw-noop', namespace: ns, body: { metadata: { labels: { changed: 'yes' } } } },
      mergePatch,
    );
    await waitFor('MODIFIED', () => (seen.length > 0 ? true : undefined));
    req.abort();
    t.deepEqual(seen, [{ type: 'MODIFIED', labels: { changed: 'yes' } }]);
  },
);

test.serial('an informer resumes from its resourceVersion after the server drops the watch', async (t) => {
  const sim = env.sim;
  if (!sim) return t.pass('needs the simulated cluster (fault hook)');
  const rec = configMapInformer('resume=yes');
  let connects = 0;
  rec.informer.on('connect', () => (connects += 1));
  await rec.informer.start();
  await createCm('resume-1', { resume: 'yes' });
  await waitFor('first add', () => (rec.events.includes('add:resume-1') ? true : undefined));
  // Dropped and written in one tick, while the informer is disconnected: resume-2 can only arrive through the
  // replay from the informer's resourceVersion.
  t.true(sim.server.faults.dropWatches() >= 1);
  const cmType = sim.server.registry.mustFind('', 'v1', 'configmaps');
  sim.server.writer.create(cmType, ns, { metadata: { name: 'resume-2', labels: { resume: 'yes' } } });
  await waitFor('replayed add', () => (rec.events.includes('add:resume-2') ? true : undefined));
  t.is(rec.lists, 1, 'resumed with a watch from the last resourceVersion, no relist');
  t.true(connects >= 2);
  await rec.informer.stop();
});

test.serial('an informer relists after 410 Expired once history was compacted', async (t) => {
  const sim = env.sim;
  if (!sim) return t.pass('needs the simulated cluster (compaction hook)');
  const rec = configMapInformer('relist=yes');
  await createCm('gone-soon', { relist: 'yes' });
  await rec.informer.start();
  t.is(rec.lists, 1);
  // In one tick: drop the watch, change state, compact. The reconnect then asks for a compacted RV.
  const cmType = sim.server.registry.mustFind('', 'v1', 'configmaps');
  sim.server.faults.dropWatches();
  sim.server.writer.delete(cmType, ns, 'gone-soon');
  sim.server.writer.create(cmType, ns, { metadata: { name: 'after-compact', labels: { relist: 'yes' } } });
  sim.server.faults.compact();
  await waitFor('relist', () => (rec.events.includes('add:after-compact') ? true : undefined));
  t.is(rec.lists, 2, 'the 410 made the informer list again');
  t.true(rec.events.includes('delete:gone-soon'), 'the relist noticed the deletion');
  await rec.informer.stop();
});

test.serial(
  'a raw watch from a compacted resourceVersion gets an ERROR event with a 410 Status',
  async (t) => {
    const sim = env.sim;
    if (!sim) return t.pass('needs the simulated cluster (compaction hook)');
    const old = (await env.core.listNamespacedConfigMap({ namespace: ns })).metadata?.resourceVersion ?? '';
    await createCm(uniqueName('bump'), {});
    sim.server.faults.compact();
    const seen: { type: string; code?: number; reason?: string }[] = [];
    await new Promise<void>((resolve, reject) => {
      void new k8s.Watch(env.kc)
        .watch(
          `/api/v1/namespaces/${ns}/configmaps`,
          { resourceVersion: old },
          (type, obj: { code?: number; reason?: string }) => {
            seen.push({
              type,
              ...(obj.code !== undefined ? { code: obj.code } : {}),
              ...(obj.reason ? { reason: obj.reason } : {}),
            });
          },
          (err) => (err ? reject(err as Error) : resolve()),
        )
        .catch(reject);
    });
    t.deepEqual(seen, [{ type: 'ERROR', code: 410, reason: 'Expired' }]);
  },
);

test.serial(
  'watch with allowWatchBookmarks and timeoutSeconds: bookmark carries the RV, server closes',
  async (t) => {
    const seen: string[] = [];
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      void new k8s.Watch(env.kc)
        .watch(
          `/api/v1/namespaces/${ns}/configmaps`,
          // The cacher's last bookmark comes 2 s before the deadline, so a watch shorter than that gets none.
          { allowWatchBookmarks: true, timeoutSeconds: 3, resourceVersion: '0' },
          (type, obj: { metadata?: { resourceVersion?: string } }) => {
            if (type === 'BOOKMARK') seen.push(`BOOKMARK:${obj.metadata?.resourceVersion ? 'rv' : 'none'}`);
          },
          (err) => (err ? reject(err as Error) : resolve()),
        )
        .catch(reject);
    });
    // Closed by the server at its deadline: not before it (a lower bound holds on a busy machine), and at
    // all (a watch the server never closed would hang this test until ava's timeout).
    const took = Date.now() - started;
    t.true(took >= 2900, `closed after ${took} ms`);
    if (env.sim) t.deepEqual(seen.slice(-1), ['BOOKMARK:rv']);
  },
);

test.serial(
  'after an API server restart the informer reports error and recovers only when restarted (row 9)',
  async (t) => {
    const sim = env.sim;
    if (!sim) return t.pass('needs the simulated cluster (restart hook)');
    const rec = configMapInformer('restart=yes');
    const errors: unknown[] = [];
    rec.informer.on('error', (e) => errors.push(e));
    await rec.informer.start();
    await sim.server.faults.restart(300);
    await waitFor('informer error', () => (errors.length > 0 ? true : undefined), 20_000);
    await createCm('after-restart', { restart: 'yes' });
    // The operator's rule: supervise informers and start them again on `error`.
    await rec.informer.start();
    await waitFor('add after restart', () => (rec.events.includes('add:after-restart') ? true : undefined));
    t.true(errors.length >= 1);
    await rec.informer.stop();
  },
);
