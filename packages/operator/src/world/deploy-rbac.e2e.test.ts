import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CoreV1Api, KubeConfig, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import type { SimWorld } from './sim-world.js';
import { phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

const DEPLOY = fileURLToPath(new URL('../../../../deploy/', import.meta.url));
const RBAC_KINDS = new Set(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'ServiceAccount']);

/** The RBAC objects of deploy/ (and the ServiceAccount they bind), parsed from its YAML files. */
function operatorCore(world: SimWorld): CoreV1Api {
  const kc = new KubeConfig();
  kc.loadFromFile(join(world.dir, 'operator.kubeconfig'));
  return kc.makeApiClient(CoreV1Api);
}

async function deployRbac(): Promise<KubernetesObject[]> {
  const files = (await readdir(DEPLOY)).filter((f) => f.endsWith('.yaml')).sort();
  const out: KubernetesObject[] = [];
  for (const f of files) {
    for (const doc of parseAllDocuments(await readFile(join(DEPLOY, f), 'utf8'))) {
      if (doc.errors.length > 0) throw new Error(`${f}: ${doc.errors[0]?.message ?? ''}`);
      const obj = doc.toJS() as KubernetesObject | null;
      if (obj?.kind !== undefined && RBAC_KINDS.has(obj.kind)) out.push(obj);
    }
  }
  return out;
}

/** Creates them as the cluster admin; the ServiceAccount already exists in the simulated cluster. */
async function applyAsAdmin(world: SimWorld, objects: readonly KubernetesObject[]): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const api = KubernetesObjectApi.makeApiClient(kc);
  for (const o of objects) {
    await api.create(o).catch((err: unknown) => {
      if ((err as { code?: number }).code !== 409) throw err;
    });
  }
}

/** Records every request of the operator's ServiceAccount that RBAC refuses (including swallowed ones). */
function recordRefusals(world: SimWorld): string[] & { used: Set<string> } {
  const refused = Object.assign([] as string[], { used: new Set<string>() });
  const authorizer = world.cluster.server.ctx.authorizer;
  if (!authorizer) throw new Error('the simulated API server does not enforce RBAC');
  const operator = world.cluster.operator.user.name;
  const allowed = authorizer.allowed.bind(authorizer);
  authorizer.allowed = (a) => {
    const ok = allowed(a);
    if (a.user.name !== operator) return ok;
    if (!ok) refused.push(`${a.verb} ${a.path}`);
    const r = a.resource;
    if (ok && r)
      refused.used.add(
        `${a.verb} ${r.group === '' ? '' : `${r.group}/`}${r.resource}${r.subresource ? `/${r.subresource}` : ''}`,
      );
    return ok;
  };
  return refused;
}

test.serial(
  'the operator joins and removes a host with only the permissions in deploy/, RBAC enforced',
  async (t) => {
    // Its SSH server is not on port 22, so its host key is pinned under `address:port`.
    const { world, logs } = await testWorld([{ hostname: 'WIN-RBAC', sshPort: 0 }], { rbac: true });
    t.teardown(() => world.stop());
    const refused = recordRefusals(world);
    // Without deploy/ the operator's ServiceAccount may do nothing: RBAC really is enforced.
    await t.throwsAsync(operatorCore(world).listNode(), { message: /403/ });
    t.is(refused.length, 1);
    refused.length = 0;
    const objects = await deployRbac();
    t.deepEqual([...new Set(objects.map((o) => o.kind))].sort(), [
      'ClusterRole',
      'ClusterRoleBinding',
      'Role',
      'RoleBinding',
      'ServiceAccount',
    ]);
    await applyAsAdmin(world, objects);
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const address = world.hosts.hosts[0]!.address;
    try {
      await until('Ready', phaseIs(world, address, 'Ready'), 15_000);
    } catch (err) {
      t.log(logs.filter((l) => l.includes('403') || l.includes('forbidden')).join('\n'));
      throw err;
    }
    const nodes = await windowsNodes(world);
    t.deepEqual(
      nodes.map((n) => n.metadata?.name),
      ['win-rbac'],
    );
    t.not(world.hosts.hosts[0]!.sim.port, 22);
    t.is(
      nodes[0]?.metadata?.annotations?.['windowsmachineconfig.openshift.io/ssh-host-key'],
      world.hosts.hosts[0]!.sim.hostKeyBase64,
      'the pinned host key is on the Node',
    );
    // And back out: drain, deconfigure, delete the Node.
    await world.setInstances({});
    await until('the node deleted', async () =>
      (await windowsNodes(world)).length === 0 ? true : undefined,
    );
    t.deepEqual([...refused], [], 'no request of the operator was refused');
    t.log(`permissions used: ${[...refused.used].sort().join(', ')}`);
    t.false(
      logs.some((l) => /forbidden|HTTP 403/i.test(l)),
      'no log line reports a refusal',
    );
  },
);
