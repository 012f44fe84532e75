import test from 'ava';
import * as k8s from '@kubernetes/client-node';
import { expectApiError, scenarioEnv, uniqueName, waitFor, type ScenarioEnv } from './scenario-env.js';

// generateName, and the three deletion propagation policies through ownerReferences.

let env: ScenarioEnv;
let ns: string;

test.before(async () => {
  env = await scenarioEnv();
  ns = uniqueName('scn-own');
  await env.core.createNamespace({ body: { metadata: { name: ns } } });
});

test.after.always(async () => {
  await env.core.deleteNamespace({ name: ns }).catch(() => undefined);
  await env.stop();
});

async function ownerAndChild(prefix: string): Promise<{ owner: k8s.V1ConfigMap; child: string }> {
  const owner = await env.core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: `${prefix}-owner` } },
  });
  const ref = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: owner.metadata!.name!,
    uid: owner.metadata!.uid!,
    blockOwnerDeletion: true,
  };
  await env.core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: `${prefix}-child`, ownerReferences: [ref] } },
  });
  return { owner, child: `${prefix}-child` };
}

async function gone(name: string): Promise<true | undefined> {
  try {
    await env.core.readNamespacedConfigMap({ name, namespace: ns });
    return undefined;
  } catch {
    return true;
  }
}

test('generateName: the server appends a random suffix', async (t) => {
  const a = await env.core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { generateName: 'gen-' } },
  });
  const b = await env.core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { generateName: 'gen-' } },
  });
  t.regex(a.metadata?.name ?? '', /^gen-[a-z0-9]{5}$/);
  t.not(a.metadata?.name, b.metadata?.name);
  const e = await expectApiError(
    env.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: {} } }),
  );
  t.is(e.code, 422);
});

test('propagationPolicy Orphan keeps the dependent and drops its ownerReference', async (t) => {
  const { owner, child } = await ownerAndChild('orphan');
  await env.core.deleteNamespacedConfigMap({
    name: owner.metadata!.name!,
    namespace: ns,
    propagationPolicy: 'Orphan',
  });
  await waitFor('owner gone', () => gone(owner.metadata!.name!));
  const kept = await waitFor('reference dropped', async () => {
    const c = await env.core.readNamespacedConfigMap({ name: child, namespace: ns });
    return (c.metadata?.ownerReferences ?? []).length === 0 ? c : undefined;
  });
  t.is(kept.metadata?.name, child);
});

test('propagationPolicy Foreground keeps the owner until its dependents are gone', async (t) => {
  const { owner, child } = await ownerAndChild('fg');
  const ownerName = owner.metadata!.name!;
  const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
  await env.core.patchNamespacedConfigMap(
    { name: child, namespace: ns, body: { metadata: { finalizers: ['example.com/hold'] } } },
    mergePatch,
  );
  await env.core.deleteNamespacedConfigMap({
    name: ownerName,
    namespace: ns,
    propagationPolicy: 'Foreground',
  });
  const waiting = await waitFor('child deleting', async () => {
    const c = await env.core.readNamespacedConfigMap({ name: child, namespace: ns });
    return c.metadata?.deletionTimestamp ? c : undefined;
  });
  t.truthy(waiting);
  const o = await env.core.readNamespacedConfigMap({ name: ownerName, namespace: ns });
  t.truthy(o.metadata?.deletionTimestamp);
  t.deepEqual(o.metadata?.finalizers, ['foregroundDeletion']);
  await env.core.patchNamespacedConfigMap(
    { name: child, namespace: ns, body: { metadata: { finalizers: null } } },
    mergePatch,
  );
  await waitFor('child gone', () => gone(child));
  await waitFor('owner gone', () => gone(ownerName));
});
