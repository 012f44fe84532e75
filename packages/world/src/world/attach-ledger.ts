import { KubernetesObjectApi, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import type { ObjectRef } from './attach-objects.js';

/** The kinds the operator writes in its namespace (what a run's operator may leave there). */
export const OPERATOR_NAMESPACE_KINDS: readonly Pick<ObjectRef, 'apiVersion' | 'kind'>[] = [
  { apiVersion: 'v1', kind: 'ConfigMap' },
  { apiVersion: 'v1', kind: 'Secret' },
  { apiVersion: 'v1', kind: 'Service' },
  { apiVersion: 'v1', kind: 'Event' },
  { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
  { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor' },
  { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule' },
];

/** What was in the cluster before a run wrote anything (`kind/namespace/name` of each object). */
export type Baseline = ReadonlySet<string>;

export const refKey = (r: ObjectRef): string => `${r.apiVersion}/${r.kind}/${r.namespace ?? ''}/${r.name}`;

/** The objects of a kind (in a namespace); none when the cluster does not serve the kind. */
export async function listRefs(
  kc: KubeConfig,
  type: Pick<ObjectRef, 'apiVersion' | 'kind'>,
  namespace?: string,
): Promise<(ObjectRef & { readonly object: KubernetesObject })[]> {
  const api = KubernetesObjectApi.makeApiClient(kc);
  const list = await api.list(type.apiVersion, type.kind, namespace).catch(() => undefined);
  return (list?.items ?? []).map((o) => ({
    ...type,
    name: o.metadata?.name ?? '',
    ...(o.metadata?.namespace !== undefined ? { namespace: o.metadata.namespace } : {}),
    object: o,
  }));
}

/** Where a run's operator and kubelets write: their objects are told from the cluster's by the baseline. */
export const WATCHED: readonly (Pick<ObjectRef, 'apiVersion' | 'kind'> & { namespace?: string })[] = [
  ...OPERATOR_NAMESPACE_KINDS.map((t) => ({ ...t, namespace: OPERATOR_NAMESPACE })),
  { apiVersion: 'v1', kind: 'Node' },
  { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest' },
  { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'kube-node-lease' },
  { apiVersion: 'v1', kind: 'Event', namespace: 'default' },
];

/** The objects of every WATCHED kind before the run. */
export async function takeBaseline(kc: KubeConfig): Promise<Baseline> {
  const lists = await Promise.all(WATCHED.map((w) => listRefs(kc, w, w.namespace)));
  return new Set(lists.flat().map(refKey));
}

/**
 * What `--cleanup` must undo: what existed before the run wrote anything, each object attach mode
 * created (in order), and the run's hosts (their objects are the ones the operator and kubelets made).
 */
export class AttachLedger {
  private readonly refs: ObjectRef[] = [];
  private start: { readonly kc: KubeConfig; readonly baseline: Baseline } | undefined;
  /** The windows-instances keys, addresses and Node names of the run's simulated hosts. */
  hosts: {
    readonly keys: readonly string[];
    readonly addresses: readonly string[];
    readonly nodeNames: readonly string[];
  } = { keys: [], addresses: [], nodeNames: [] };

  /** Notes what the cluster holds before the run writes anything. */
  async begin(kc: KubeConfig): Promise<void> {
    this.start = { kc, baseline: await takeBaseline(kc) };
  }

  /** The cluster and its baseline once `begin` ran (undefined: the run wrote nothing). */
  get started(): { readonly kc: KubeConfig; readonly baseline: Baseline } | undefined {
    return this.start;
  }

  /** Records an object attach mode created (a CreatedSink). */
  readonly record = (ref: ObjectRef): void => {
    this.refs.push(ref);
  };

  get created(): readonly ObjectRef[] {
    return this.refs;
  }
}
