import test from 'ava';
import type { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import type { ClusterFacts } from '../desired/cluster-facts.js';
import { isNotFound } from '../kube/client/api-errors.js';
import { FakeClock } from '../kube/fake-clock.js';
import { silentLogger } from '../kube/logger.js';
import type { KubeObject, WatchPort } from '../kube/watch-port.js';
import { InformedClusterFacts } from './informed-cluster-facts.js';

const flush = (): Promise<unknown> => new Promise((r) => setImmediate(r));
const infra = (platform: string, rv: string): KubeObject & { status: unknown } => ({
  metadata: { name: 'cluster', resourceVersion: rv },
  status: { platformStatus: { type: platform } },
});

/** An API with one Infrastructure; lists per path, watches the test drives, and direct GETs counted. */
function fakeCluster(): {
  core: CoreV1Api;
  custom: CustomObjectsApi;
  watch: WatchPort;
  gets: () => number;
  emit: (path: string, type: string, o: KubeObject) => void;
  state: { infra: KubeObject | undefined };
} {
  const state = { infra: infra('AWS', '1') as KubeObject | undefined };
  let gets = 0;
  const watches = new Map<string, (t: string, o: unknown) => void>();
  const empty = (): Promise<{ items: KubeObject[]; metadata: { resourceVersion: string } }> =>
    Promise.resolve({ items: [], metadata: { resourceVersion: '1' } });
  const custom = {
    listClusterCustomObject: (r: { plural: string }) =>
      r.plural === 'infrastructures' && state.infra
        ? Promise.resolve({ items: [state.infra], metadata: { resourceVersion: '1' } })
        : empty(),
    getClusterCustomObject: () => {
      gets++;
      return state.infra
        ? Promise.resolve(state.infra)
        : Promise.reject(Object.assign(new Error('nf'), { code: 404 }));
    },
  } as unknown as CustomObjectsApi;
  const core = { listNamespacedSecret: empty, listNamespacedConfigMap: empty } as unknown as CoreV1Api;
  const watch: WatchPort = (path, _query, onEvent) => {
    watches.set(path, onEvent);
    return Promise.resolve({ abort: () => undefined });
  };
  const emit = (path: string, type: string, o: KubeObject): void => watches.get(path)?.(type, o);
  return { core, custom, watch, gets: () => gets, emit, state };
}

/** A facts reader that only looks at the Infrastructure (the real one needs every object). */
async function platformOnly(_core: CoreV1Api, custom: CustomObjectsApi): Promise<ClusterFacts> {
  const o = (await custom.getClusterCustomObject({
    group: 'config.openshift.io',
    version: 'v1',
    plural: 'infrastructures',
    name: 'cluster',
  })) as { status: { platformStatus: { type: string } } };
  return { platform: o.status.platformStatus.type } as ClusterFacts;
}

function setup(): { api: ReturnType<typeof fakeCluster>; facts: InformedClusterFacts } {
  const api = fakeCluster();
  const facts = new InformedClusterFacts(
    { ...api, clock: new FakeClock(), logger: silentLogger, namespace: 'wmco' },
    platformOnly,
  );
  return { api, facts };
}

test('facts come from the API until the watches have listed, then from the caches, kept until a change', async (t) => {
  const { api, facts } = setup();
  t.is((await facts.facts()).platform, 'AWS');
  t.is(api.gets(), 1, 'before the caches are synced: read from the API server');
  await flush();
  t.true(facts.synced);
  for (let i = 0; i < 5; i++) t.is((await facts.facts()).platform, 'AWS');
  t.is(api.gets(), 1, 'no GET once the caches are synced');
  t.deepEqual(facts.stats, { fromCache: 1, direct: 1 }, 'assembled once, then kept');
  api.emit('/apis/config.openshift.io/v1/infrastructures', 'MODIFIED', infra('GCP', '2'));
  t.is((await facts.facts()).platform, 'GCP', 'a watched change gives new facts at once');
  t.is(facts.stats.fromCache, 2);
  t.is(api.gets(), 1);
  facts.stop();
});

test('an object that leaves the cluster is a not-found error, not kept, and facts follow it back', async (t) => {
  const { api, facts } = setup();
  await facts.facts();
  await flush();
  api.emit('/apis/config.openshift.io/v1/infrastructures', 'DELETED', infra('AWS', '2'));
  const err = await t.throwsAsync(facts.facts());
  t.true(isNotFound(err), 'readClusterFacts turns this into its ClusterFactsError');
  api.emit('/apis/config.openshift.io/v1/infrastructures', 'ADDED', infra('Azure', '3'));
  t.is((await facts.facts()).platform, 'Azure');
  facts.stop();
});
