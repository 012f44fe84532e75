import test from 'ava';
import * as k8s from '@kubernetes/client-node';
import { expectApiError, scenarioEnv, uniqueName, waitFor, type ScenarioEnv } from './scenario-env.js';

// Write semantics of kube-apiserver (simulated-world-notes §A rows 4, 5, 6) through client-node.

let env: ScenarioEnv;
let ns: string;
const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const strategic = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch);

test.before(async () => {
  env = await scenarioEnv();
  ns = uniqueName('scn-sem');
  await env.core.createNamespace({ body: { metadata: { name: ns } } });
});

test.after.always(async () => {
  await env.core.deleteNamespace({ name: ns }).catch(() => undefined);
  await env.stop();
});

test('create twice is 409 AlreadyExists; a stale resourceVersion is 409 Conflict', async (t) => {
  const cm = await env.core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: 'conflict' }, data: { a: '1' } },
  });
  const dup = await expectApiError(
    env.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'conflict' } } }),
  );
  t.is(dup.code, 409);
  t.is(dup.body['reason'], 'AlreadyExists');
  await env.core.replaceNamespacedConfigMap({
    name: 'conflict',
    namespace: ns,
    body: { ...cm, data: { a: '2' } },
  });
  const stale = await expectApiError(
    env.core.replaceNamespacedConfigMap({
      name: 'conflict',
      namespace: ns,
      body: { ...cm, data: { a: '3' } },
    }),
  );
  t.is(stale.code, 409);
  t.is(stale.body['reason'], 'Conflict');
  t.regex(String(stale.body['message']), /the object has been modified/);
});

test('a no-op update keeps the resourceVersion (row 4)', async (t) => {
  const cm = await env.core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: 'noop' }, data: { a: '1' } },
  });
  const same = await env.core.replaceNamespacedConfigMap({ name: 'noop', namespace: ns, body: cm });
  t.is(same.metadata?.resourceVersion, cm.metadata?.resourceVersion);
});

function daemonSet(name: string): k8s.V1DaemonSet {
  const labels = { app: name };
  return {
    metadata: { name },
    spec: {
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    },
  };
}

test('generation moves only with spec changes (row 4)', async (t) => {
  const apps = env.kc.makeApiClient(k8s.AppsV1Api);
  const ds = await apps.createNamespacedDaemonSet({ namespace: ns, body: daemonSet('gen') });
  t.is(ds.metadata?.generation, 1);
  const labelled = await apps.patchNamespacedDaemonSet(
    { name: 'gen', namespace: ns, body: { metadata: { labels: { x: 'y' } } } },
    mergePatch,
  );
  t.is(labelled.metadata?.generation, 1);
  const body = { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox:2' }] } } } };
  const changed = await apps.patchNamespacedDaemonSet({ name: 'gen', namespace: ns, body }, strategic);
  t.is(changed.metadata?.generation, 2);
  t.is(changed.spec?.template.spec?.containers[0]?.image, 'busybox:2');
});

test('.status through the main resource and spec through /status are ignored (row 4)', async (t) => {
  const apps = env.kc.makeApiClient(k8s.AppsV1Api);
  const ds = await apps.createNamespacedDaemonSet({ namespace: ns, body: daemonSet('split') });
  const status = (n: number): k8s.V1DaemonSetStatus => ({
    currentNumberScheduled: n,
    desiredNumberScheduled: n,
    numberMisscheduled: 0,
    numberReady: n,
  });
  const ignored = await apps.replaceNamespacedDaemonSet({
    name: 'split',
    namespace: ns,
    body: { ...ds, status: status(9) },
  });
  t.not(ignored.status?.numberReady, 9, '.status written through the main resource is ignored');
  const spec = { ...ignored.spec!, minReadySeconds: 99 };
  const st = await apps.replaceNamespacedDaemonSetStatus({
    name: 'split',
    namespace: ns,
    body: { ...ignored, spec, status: status(1) },
  });
  t.is(st.status?.numberReady, 1);
  t.is(st.spec?.minReadySeconds, undefined, '/status ignores spec');
  t.is(st.metadata?.generation, 1);
});

test('finalizers: delete sets deletionTimestamp, new finalizers are 422, removing the last one deletes (row 5)', async (t) => {
  const name = 'fin';
  await env.core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name, finalizers: ['example.com/hold'] } },
  });
  // client-node types the reply as V1Status, so the object's deletionTimestamp is read back instead.
  await env.core.deleteNamespacedConfigMap({ name, namespace: ns });
  const still = await env.core.readNamespacedConfigMap({ name, namespace: ns });
  t.truthy(still.metadata?.deletionTimestamp);
  const more = await expectApiError(
    env.core.patchNamespacedConfigMap(
      { name, namespace: ns, body: { metadata: { finalizers: ['example.com/hold', 'example.com/more'] } } },
      mergePatch,
    ),
  );
  t.is(more.code, 422);
  t.regex(String(more.body['message']), /no new finalizers can be added if the object is being deleted/);
  await env.core.patchNamespacedConfigMap({
    name,
    namespace: ns,
    body: [{ op: 'remove', path: '/metadata/finalizers' }],
  });
  const gone = await expectApiError(env.core.readNamespacedConfigMap({ name, namespace: ns }));
  t.is(gone.code, 404);
});

test('delete preconditions: a wrong uid is 409', async (t) => {
  await env.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'pre' } } });
  const e = await expectApiError(
    env.core.deleteNamespacedConfigMap({
      name: 'pre',
      namespace: ns,
      body: { preconditions: { uid: 'not-the-uid' } },
    }),
  );
  t.is(e.code, 409);
});

test('immutable ConfigMaps reject data changes with 422', async (t) => {
  const cm = await env.core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: 'frozen' }, data: { a: '1' }, immutable: true },
  });
  const e = await expectApiError(
    env.core.replaceNamespacedConfigMap({ name: 'frozen', namespace: ns, body: { ...cm, data: { a: '2' } } }),
  );
  t.is(e.code, 422);
});

test('ownerReferences: deleting the owner garbage-collects the dependent', async (t) => {
  const owner = await env.core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: 'owner' } },
  });
  await env.core.createNamespacedConfigMap({
    namespace: ns,
    body: {
      metadata: {
        name: 'dependent',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! }],
      },
    },
  });
  await env.core.deleteNamespacedConfigMap({ name: 'owner', namespace: ns, propagationPolicy: 'Background' });
  await waitFor('dependent collected', async () => {
    try {
      await env.core.readNamespacedConfigMap({ name: 'dependent', namespace: ns });
      return undefined;
    } catch {
      return true;
    }
  });
  t.pass();
});

test('eviction is refused with 429 while a PodDisruptionBudget forbids it, allowed when it permits', async (t) => {
  const policy = env.kc.makeApiClient(k8s.PolicyV1Api);
  for (const name of ['web-1', 'web-2']) {
    const pod = await env.core.createNamespacedPod({
      namespace: ns,
      body: {
        metadata: { name, labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    });
    const now = new Date();
    await env.core.replaceNamespacedPodStatus({
      name,
      namespace: ns,
      body: {
        ...pod,
        status: {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }],
        },
      },
    });
  }
  await policy.createNamespacedPodDisruptionBudget({
    namespace: ns,
    body: { metadata: { name: 'web' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } } },
  });
  const evict = (name: string): Promise<unknown> =>
    env.core.createNamespacedPodEviction({
      name,
      namespace: ns,
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: ns } },
    });
  const blocked = await expectApiError(evict('web-1'));
  t.is(blocked.code, 429);
  t.is(blocked.body['reason'], 'TooManyRequests');
  const causes = (blocked.body['details'] as { causes: { reason: string; message: string }[] }).causes;
  t.is(causes[0]?.reason, 'DisruptionBudget');
  t.regex(causes[0]?.message ?? '', /needs 2 healthy pods and has 2 currently/);
  await policy.patchNamespacedPodDisruptionBudget(
    { name: 'web', namespace: ns, body: { spec: { minAvailable: 1 } } },
    mergePatch,
  );
  await evict('web-1');
  const gone = await expectApiError(env.core.readNamespacedPod({ name: 'web-1', namespace: ns }));
  t.is(gone.code, 404);
});
