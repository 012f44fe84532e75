import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { CoreV1Api } from '@kubernetes/client-node';
import { HYBRID_SUBNET_ANNOTATION, startBareCluster, type BareCluster } from '@wmco/sim';
import { seedOpenShift } from './attach-seeding.js';
import { loadAttachTarget } from './attach-target.js';
import { HybridOverlayStandIn, OVN_NODE_SUBNETS, realOvnKube } from './hybrid-overlay-standin.js';

async function seeded(t: {
  teardown(f: () => Promise<void>): void;
}): Promise<{ c: BareCluster; kc: KubeConfig }> {
  const c = await startBareCluster();
  t.teardown(() => c.stop());
  const file = join(mkdtempSync(join(tmpdir(), 'hybrid-standin-')), 'admin.kubeconfig');
  await c.server.writeKubeconfig(file, c.server.admin);
  const target = await loadAttachTarget(file);
  await seedOpenShift(target, 'None');
  return { c, kc: target.kc };
}

const node = (name: string, os: string, annotations: Record<string, string> = {}): object => ({
  metadata: { name, labels: { 'kubernetes.io/os': os }, annotations },
});

async function annotations(core: CoreV1Api, name: string): Promise<Record<string, string>> {
  return (await core.readNode({ name })).metadata?.annotations ?? {};
}

test('the stand-in is off when a Node carries ovnkube node-subnets, on otherwise', async (t) => {
  const { kc } = await seeded(t);
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNode({ body: node('linux-0', 'linux') });
  t.is(await realOvnKube(kc), undefined);
  await core.createNode({
    body: node('linux-1', 'linux', { [OVN_NODE_SUBNETS]: '{"default":"10.128.0.0/23"}' }),
  });
  t.is(await realOvnKube(kc), `node linux-1 carries ${OVN_NODE_SUBNETS} (a real ovnkube)`);
});

test('the stand-in gives each Windows Node a free hybrid subnet and leaves others alone', async (t) => {
  const { kc } = await seeded(t);
  const core = kc.makeApiClient(CoreV1Api);
  // Someone (a real annotator) already gave win-a the first subnet.
  await core.createNode({ body: node('win-a', 'windows', { [HYBRID_SUBNET_ANNOTATION]: '10.132.0.0/23' }) });
  await core.createNode({ body: node('win-b', 'windows') });
  await core.createNode({ body: node('linux-0', 'linux') });
  const errors: unknown[] = [];
  const s = new HybridOverlayStandIn(kc, (e) => errors.push(e), 50);
  s.start();
  t.teardown(() => s.stop());
  const deadline = Date.now() + 10_000;
  while ((await annotations(core, 'win-b'))[HYBRID_SUBNET_ANNOTATION] === undefined && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  t.is((await annotations(core, 'win-b'))[HYBRID_SUBNET_ANNOTATION], '10.132.2.0/23');
  t.is((await annotations(core, 'win-a'))[HYBRID_SUBNET_ANNOTATION], '10.132.0.0/23');
  t.is((await annotations(core, 'linux-0'))[HYBRID_SUBNET_ANNOTATION], undefined);
  t.deepEqual(errors, []);
});

test('the stand-in reports a cluster without network.operator.openshift.io and annotates nothing', async (t) => {
  const c = await startBareCluster();
  t.teardown(() => c.stop());
  const file = join(mkdtempSync(join(tmpdir(), 'hybrid-standin-')), 'admin.kubeconfig');
  await c.server.writeKubeconfig(file, c.server.admin);
  const { kc } = await loadAttachTarget(file);
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNode({ body: node('win-c', 'windows') });
  const errors: unknown[] = [];
  const s = new HybridOverlayStandIn(kc, (e) => errors.push(e), 50);
  s.start();
  t.teardown(() => s.stop());
  while (errors.length === 0) await new Promise((r) => setTimeout(r, 50));
  t.regex(String(errors[0]), /404|not found/i);
  t.is((await annotations(core, 'win-c'))[HYBRID_SUBNET_ANNOTATION], undefined);
});
