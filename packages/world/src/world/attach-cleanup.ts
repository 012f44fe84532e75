import {
  KubernetesObjectApi,
  type KubeConfig,
  type KubernetesObject,
  type V1CertificateSigningRequest,
  type CoreV1Event,
  type V1Node,
} from '@kubernetes/client-node';
import { PENDING_HOST_KEYS_CONFIGMAP } from '@wmco/core/internal';
import { parseCsr } from '@wmco/core';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import { waitFor, type ObjectRef } from './attach-objects.js';
import { WATCHED, listRefs, refKey, type AttachLedger } from './attach-ledger.js';
import { clearPins, stalePins } from './attach-pins.js';

type Found = ObjectRef & { readonly object: KubernetesObject };
type Hosts = AttachLedger['hosts'];

const isNotFound = (e: unknown): boolean => (e as { code?: unknown }).code === 404;
const HOST_KEYS_KEY = `v1/ConfigMap/${OPERATOR_NAMESPACE}/${PENDING_HOST_KEYS_CONFIGMAP}`;

const metadataOf = (r: ObjectRef): { name: string; namespace?: string } =>
  r.namespace !== undefined ? { name: r.name, namespace: r.namespace } : { name: r.name };

function isOurNode(o: Found, hosts: Hosts): boolean {
  const addresses = (o.object as V1Node).status?.addresses ?? [];
  return hosts.nodeNames.includes(o.name) || addresses.some((a) => hosts.addresses.includes(a.address));
}

/** A kubelet's CSR (client or serving) asks for `system:node:<name>` in its subject. */
async function isOurCsr(o: Found, nodes: ReadonlySet<string>): Promise<boolean> {
  const request = (o.object as V1CertificateSigningRequest).spec.request;
  const cn = await parseCsr(request).then(
    (p) => p.commonName,
    () => '',
  );
  return cn.startsWith('system:node:') && nodes.has(cn.slice('system:node:'.length));
}

async function isTheRuns(o: Found, hosts: Hosts, nodes: ReadonlySet<string>): Promise<boolean> {
  if (o.namespace === OPERATOR_NAMESPACE) return true;
  if (o.kind === 'Node') return isOurNode(o, hosts);
  if (o.kind === 'CertificateSigningRequest') return isOurCsr(o, nodes);
  if (o.kind === 'Lease') return nodes.has(o.name);
  const involved = (o.object as CoreV1Event).involvedObject;
  // Events about cluster-scoped objects are in `default`: the hosts' Nodes, and the operator's Namespace.
  if (involved.kind === 'Namespace') return involved.name === OPERATOR_NAMESPACE;
  return involved.kind === 'Node' && nodes.has(involved.name ?? '');
}

/**
 * What the run's operator and kubelets created (absent from the baseline): the objects in the operator's
 * namespace, the hosts' Nodes, their CSRs and node Leases, and Events about those Nodes and about the
 * operator's Namespace elsewhere.
 */
async function leftByTheRun(
  kc: KubeConfig,
  ledger: AttachLedger,
  baseline: ReadonlySet<string>,
): Promise<Found[]> {
  const fresh = (await Promise.all(WATCHED.map((w) => listRefs(kc, w, w.namespace))))
    .flat()
    .filter((o) => !baseline.has(refKey(o)));
  const nodes = new Set([
    ...ledger.hosts.nodeNames,
    ...fresh.filter((o) => o.kind === 'Node' && isOurNode(o, ledger.hosts)).map((o) => o.name),
  ]);
  const ours = await Promise.all(fresh.map((o) => isTheRuns(o, ledger.hosts, nodes)));
  return fresh.filter((_, i) => ours[i]);
}

async function deleteAll(kc: KubeConfig, refs: readonly ObjectRef[]): Promise<string[]> {
  const api = KubernetesObjectApi.makeApiClient(kc);
  const failed: string[] = [];
  for (const r of refs) {
    const spec = { apiVersion: r.apiVersion, kind: r.kind, metadata: metadataOf(r) };
    await api.delete(spec).catch((e: unknown) => {
      if (!isNotFound(e)) failed.push(`${refKey(r)}: ${(e as Error).message}`);
    });
  }
  return failed;
}

/** Waits until each object is gone (namespaces and CRDs take a while); returns those that are not. */
async function remaining(kc: KubeConfig, refs: readonly ObjectRef[], timeoutMs: number): Promise<string[]> {
  const api = KubernetesObjectApi.makeApiClient(kc);
  const exists = (r: ObjectRef): Promise<boolean> =>
    api.read({ apiVersion: r.apiVersion, kind: r.kind, metadata: metadataOf(r) }).then(
      () => true,
      (e: unknown) => !isNotFound(e),
    );
  const left = async (): Promise<string[]> => {
    const there = await Promise.all(refs.map(exists));
    return refs.filter((_, i) => there[i]).map(refKey);
  };
  return waitFor(
    'the deleted objects to be gone',
    async () => ((await left()).length === 0 ? [] : undefined),
    timeoutMs,
  ).catch(() => left());
}

function summary(refs: readonly ObjectRef[]): string {
  const counts = new Map<string, number>();
  for (const r of refs) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ');
}

/**
 * `--cleanup`: deletes what the run created in the cluster and nothing that was there before it: the
 * objects attach mode created (seeded stand-ins, deploy/'s RBAC, namespaces, the token and key Secrets,
 * windows-instances) and what its operator and kubelets created (Nodes, CSRs, node Leases, the
 * operator's ConfigMaps, Lease and Events). Host-key pins go with the node records the run created, and
 * with windows-ssh-host-keys-pending when the run created it, else only the pins of the run's hosts are
 * removed from it. (An old windows-ssh-host-keys the cluster had is moved and deleted by the run's
 * operator on start, ADR 0038: that is not undone.) Throws when something could not be
 * deleted (after trying everything).
 */
export async function cleanUp(ledger: AttachLedger, out: (line: string) => void): Promise<void> {
  if (ledger.started === undefined) return; // the run wrote nothing
  const { kc, baseline } = ledger.started;
  if (baseline.has(HOST_KEYS_KEY)) {
    // The operator pins a DNS-listed host under its name and its address.
    const pins = await stalePins(kc, [...new Set([...ledger.hosts.keys, ...ledger.hosts.addresses])]);
    const keys = [...pins.own, ...pins.foreign];
    await clearPins(kc, keys);
    out(
      `cleanup: removed ${keys.length} host-key pins of the run's hosts from ${PENDING_HOST_KEYS_CONFIGMAP} (it existed before the run)`,
    );
  }
  const byKey = new Map<string, ObjectRef>();
  const left = await leftByTheRun(kc, ledger, baseline);
  for (const r of [...left, ...ledger.created.toReversed()]) byKey.set(refKey(r), r);
  const refs = [...byKey.values()];
  const failed = await deleteAll(kc, refs);
  const still = await remaining(kc, refs, 120_000);
  out(
    refs.length === 0
      ? 'cleanup: the run created nothing in the cluster'
      : `cleanup: deleted ${refs.length - still.length} objects the run created (${summary(refs)})`,
  );
  const problems = [...failed, ...still.map((k) => `${k}: still there`)];
  if (problems.length > 0) throw new Error(`cleanup left objects behind: ${problems.join('; ')}`);
}
