import {
  CustomObjectsApi,
  KubernetesObjectApi,
  loadYaml,
  type KubeConfig,
  type KubernetesObject,
} from '@kubernetes/client-node';

/** An object attach mode created, as much as deleting it needs. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

/** What a create-if-absent pass did: `kind/name` of each object created and of each left as it was. */
export interface CreateReport {
  readonly created: string[];
  readonly kept: string[];
}

/** Told of each object attach mode creates, as soon as it exists (what `--cleanup` may delete). */
export type CreatedSink = (ref: ObjectRef) => void;

/** The reference of an object (its kind, namespace and name). */
export function refOf(o: KubernetesObject): ObjectRef {
  const ns = o.metadata?.namespace;
  return {
    apiVersion: o.apiVersion ?? '',
    kind: o.kind ?? '',
    name: o.metadata?.name ?? '',
    ...(ns !== undefined ? { namespace: ns } : {}),
  };
}

type Obj = KubernetesObject & { status?: unknown };

function label(o: KubernetesObject): string {
  const ns = o.metadata?.namespace;
  return `${o.kind ?? '?'}/${ns ? `${ns}/` : ''}${o.metadata?.name ?? '?'}`;
}

function statusCode(e: unknown): number | undefined {
  const c = (e as { code?: unknown }).code;
  return typeof c === 'number' ? c : undefined;
}

/** Writes the status of a cluster-scoped custom object (the create ignored it: status is a subresource). */
async function writeStatus(kc: KubeConfig, o: Obj, created: Obj): Promise<void> {
  const [group, version] = (o.apiVersion ?? '').split('/');
  if (o.status === undefined || version === undefined || o.metadata?.namespace !== undefined) return;
  const plural = `${(o.kind ?? '').toLowerCase()}s`;
  const name = o.metadata?.name ?? '';
  await kc.makeApiClient(CustomObjectsApi).replaceClusterCustomObjectStatus({
    group: group ?? '',
    version,
    plural,
    name,
    body: { ...created, status: o.status },
  });
}

/**
 * Creates each object that does not exist yet, in order, as the kubeconfig's user; an object that exists
 * is never changed (attach mode never overwrites what a cluster has). `onCreated` hears of each creation.
 */
export async function createIfAbsent(
  kc: KubeConfig,
  objects: readonly KubernetesObject[],
  onCreated?: CreatedSink,
): Promise<CreateReport> {
  const api = KubernetesObjectApi.makeApiClient(kc);
  const report: CreateReport = { created: [], kept: [] };
  for (const o of objects) {
    try {
      // Wire JSON to the client's model first: its serializer keeps only model fields (a CRD's
      // `x-kubernetes-preserve-unknown-fields` would be dropped otherwise). JSON is YAML.
      const created = (await api.create(loadYaml<KubernetesObject>(JSON.stringify(o)))) as Obj;
      onCreated?.(refOf(o));
      await writeStatus(kc, o, created);
      report.created.push(label(o));
    } catch (e) {
      if (statusCode(e) !== 409)
        throw new Error(`cannot create ${label(o)}: ${(e as Error).message}`, { cause: e });
      report.kept.push(label(o));
    }
  }
  return report;
}

/** Polls `probe` until it yields a value or `timeoutMs` passes (then throws `what`). */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
