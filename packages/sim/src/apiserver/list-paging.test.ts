import test from 'ava';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { SupervisedInformer, kubeWatch } from '@wmco/core/internal';
import { systemClock } from '@wmco/core';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { startApiServerWith } from './started-api-server.test-helper.js';
import type { SimApiServer } from './api-server.js';

async function world(n: number): Promise<{ sim: SimApiServer; core: CoreV1Api; kc: KubeConfig }> {
  const sim = await startApiServerWith(['p']);
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig(sim.admin));
  const core = kc.makeApiClient(CoreV1Api);
  for (let i = 0; i < n; i++)
    await core.createNamespacedConfigMap({
      namespace: 'p',
      body: { metadata: { name: `cm-${i}`, labels: { app: 'x' } }, data: { v: '0' } },
    });
  return { sim, core, kc };
}

test('later pages are read at the first page resourceVersion: a consistent list, reported at it', async (t) => {
  const { sim, core } = await world(5);
  t.teardown(() => sim.stop());
  const first = await core.listNamespacedConfigMap({ namespace: 'p', limit: 2 });
  t.deepEqual(
    first.items.map((c) => c.metadata?.name),
    ['cm-0', 'cm-1'],
  );
  t.is(first.metadata?.remainingItemCount, 3);
  // Changes after the first page: one later object changed, one deleted, one added.
  await core.patchNamespacedConfigMap({
    namespace: 'p',
    name: 'cm-3',
    body: [{ op: 'replace', path: '/data/v', value: '1' }],
  });
  await core.deleteNamespacedConfigMap({ namespace: 'p', name: 'cm-4' });
  await core.createNamespacedConfigMap({ namespace: 'p', body: { metadata: { name: 'cm-9' } } });
  const second = await core.listNamespacedConfigMap({
    namespace: 'p',
    limit: 2,
    _continue: first.metadata?._continue ?? '',
  });
  const third = await core.listNamespacedConfigMap({
    namespace: 'p',
    limit: 2,
    _continue: second.metadata?._continue ?? '',
  });
  const rest = [...second.items, ...third.items];
  t.deepEqual(
    rest.map((c) => c.metadata?.name),
    ['cm-2', 'cm-3', 'cm-4'],
    'as at the first page',
  );
  t.is(rest.find((c) => c.metadata?.name === 'cm-3')?.data?.['v'], '0');
  t.is(second.metadata?.resourceVersion, first.metadata?.resourceVersion);
  t.is(third.metadata?.resourceVersion, first.metadata?.resourceVersion);
  t.is(third.metadata?._continue, undefined, 'the last page');
});

test('a selected list has no remainingItemCount; a compacted continue is 410 Expired', async (t) => {
  const { sim, core } = await world(3);
  t.teardown(() => sim.stop());
  const first = await core.listNamespacedConfigMap({ namespace: 'p', limit: 1, labelSelector: 'app=x' });
  t.truthy(first.metadata?._continue);
  t.is(first.metadata?.remainingItemCount, undefined);
  await core.createNamespacedConfigMap({ namespace: 'p', body: { metadata: { name: 'later' } } });
  sim.store.compact();
  const err = await t.throwsAsync(
    core.listNamespacedConfigMap({ namespace: 'p', limit: 1, _continue: first.metadata?._continue ?? '' }),
  );
  t.is((err as unknown as { code?: number }).code, 410);
  t.regex(err.message, /continue parameter is too old to display a consistent list result/);
});

test('an informer with a page size lists in pages (the request log shows them)', async (t) => {
  const { sim, core, kc } = await world(5);
  t.teardown(() => sim.stop());
  const before = sim.requests.total;
  const informer = new SupervisedInformer<V1ConfigMap>({
    name: 'cms',
    path: '/api/v1/namespaces/p/configmaps',
    list: ({ continue: token, ...sel }) =>
      core.listNamespacedConfigMap({
        namespace: 'p',
        ...sel,
        ...(token === undefined ? {} : { _continue: token }),
      }),
    watch: kubeWatch(kc),
    clock: systemClock,
    pageSize: 2,
  });
  t.teardown(() => informer.stop());
  await informer.start();
  t.deepEqual(
    informer
      .list()
      .map((c) => c.metadata?.name)
      .sort(),
    ['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4'],
  );
  const lists = sim.requests
    .since(before)
    .filter((r) => r.method === 'GET' && !r.watch && r.path === '/api/v1/namespaces/p/configmaps');
  t.is(lists.length, 3);
  t.true(lists.every((r) => new URLSearchParams(r.query).get('limit') === '2'));
  t.deepEqual(
    lists.map((r) => new URLSearchParams(r.query).has('continue')),
    [false, true, true],
  );
});
