import { CertificatesV1Api, CoreV1Api, type KubeConfig, type V1Node } from '@kubernetes/client-node';
import { SERVICES_CONFIGMAP_PREFIX, STATUS_CONFIGMAP, describeApiError } from '@wmco/core/internal';
import type { GatherOutput } from './gather-output.js';

/** The ConfigMap that lists BYOH hosts (upstream's name). */
const INSTANCES_CONFIGMAP = 'windows-instances';
const WINDOWS = 'kubernetes.io/os=windows';

/** Drops `managedFields` (noise in a support case), as `oc adm inspect` does not; keeps everything else. */
function clean<T extends { metadata?: { managedFields?: unknown } }>(o: T): T {
  if (o.metadata?.managedFields === undefined) return o;
  const { managedFields: _dropped, ...metadata } = o.metadata;
  return { ...o, metadata };
}

async function step(out: GatherOutput, what: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (e) {
    out.note(`${what}: ${describeApiError(e)}`);
  }
}

/** The operator's ConfigMaps: windows-instances, windows-instances-status and every windows-services-*. */
async function configMaps(out: GatherOutput, core: CoreV1Api, ns: string): Promise<void> {
  const list = await core.listNamespacedConfigMap({ namespace: ns });
  const wanted = (name: string): boolean =>
    name === INSTANCES_CONFIGMAP || name === STATUS_CONFIGMAP || name.startsWith(SERVICES_CONFIGMAP_PREFIX);
  const picked = list.items.filter((c) => wanted(c.metadata?.name ?? ''));
  for (const cm of picked) {
    const name = cm.metadata?.name ?? '';
    await out.yaml(
      `namespaces/${ns}/core/configmaps/${name}.yaml`,
      clean({ apiVersion: 'v1', kind: 'ConfigMap', ...cm }),
    );
  }
  const missing = [INSTANCES_CONFIGMAP, STATUS_CONFIGMAP].filter(
    (n) => !picked.some((c) => c.metadata?.name === n),
  );
  for (const n of missing) out.note(`configmap ${ns}/${n}: not found`);
}

/** Events of the operator namespace, and those of `default` about the Windows nodes (where node events go). */
async function events(
  out: GatherOutput,
  core: CoreV1Api,
  ns: string,
  nodes: readonly string[],
): Promise<void> {
  const own = await core.listNamespacedEvent({ namespace: ns });
  await out.yaml(`namespaces/${ns}/core/events.yaml`, {
    apiVersion: 'v1',
    kind: 'EventList',
    items: own.items.map(clean),
  });
  const all = await core.listNamespacedEvent({ namespace: 'default' });
  const names = new Set(nodes);
  const about = all.items.filter(
    (e) => e.involvedObject.kind === 'Node' && names.has(e.involvedObject.name ?? ''),
  );
  await out.yaml('namespaces/default/core/events.yaml', {
    apiVersion: 'v1',
    kind: 'EventList',
    items: about.map(clean),
  });
}

/** Windows Nodes, and the CSRs of those nodes (by requestor or by common name). */
async function nodesAndCsrs(out: GatherOutput, kc: KubeConfig, nodes: readonly V1Node[]): Promise<void> {
  for (const n of nodes) {
    await out.yaml(
      `cluster-scoped-resources/core/nodes/${n.metadata?.name ?? ''}.yaml`,
      clean({ apiVersion: 'v1', kind: 'Node', ...n }),
    );
  }
  const users = new Set(nodes.map((n) => `system:node:${n.metadata?.name ?? ''}`));
  const csrs = await kc.makeApiClient(CertificatesV1Api).listCertificateSigningRequest();
  for (const c of csrs.items.filter((r) => users.has(r.spec.username ?? ''))) {
    const path = `cluster-scoped-resources/certificates.k8s.io/certificatesigningrequests/${c.metadata?.name ?? ''}.yaml`;
    await out.yaml(
      path,
      clean({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', ...c }),
    );
  }
}

/**
 * Collects the cluster objects a Windows support case needs, never a Secret: the operator's ConfigMaps,
 * events, Windows Nodes and their CSRs. Returns the Windows nodes (their logs are gathered next).
 */
export async function gatherResources(out: GatherOutput, kc: KubeConfig, ns: string): Promise<V1Node[]> {
  const core = kc.makeApiClient(CoreV1Api);
  let nodes: V1Node[] = [];
  await step(out, 'windows nodes', async () => {
    nodes = (await core.listNode({ labelSelector: WINDOWS })).items;
  });
  const names = nodes.map((n) => n.metadata?.name ?? '');
  await step(out, `configmaps in ${ns}`, () => configMaps(out, core, ns));
  await step(out, 'events', () => events(out, core, ns, names));
  await step(out, 'nodes and CSRs', () => nodesAndCsrs(out, kc, nodes));
  return nodes;
}
