import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';

interface Needed {
  readonly group: string;
  readonly plural: string;
  /** The cluster-scoped object the operator reads (undefined: only the type must be served). */
  readonly name?: string;
}

/** What the operator reads from OpenShift (core/src/cluster/read-cluster-facts.ts). */
const NEEDED: readonly Needed[] = [
  { group: 'config.openshift.io', plural: 'infrastructures', name: 'cluster' },
  { group: 'config.openshift.io', plural: 'networks', name: 'cluster' },
  { group: 'operator.openshift.io', plural: 'networks', name: 'cluster' },
  {
    group: 'machineconfiguration.openshift.io',
    plural: 'controllerconfigs',
    name: 'machine-config-controller',
  },
  { group: 'config.openshift.io', plural: 'imagedigestmirrorsets' },
  { group: 'config.openshift.io', plural: 'imagetagmirrorsets' },
];

const isNotFound = (e: unknown): boolean => (e as { code?: unknown }).code === 404;

async function absent(probe: () => Promise<unknown>): Promise<boolean> {
  try {
    await probe();
    return false;
  } catch (e) {
    if (isNotFound(e)) return true;
    throw e;
  }
}

async function missingOne(kc: KubeConfig, n: Needed): Promise<string | undefined> {
  const crd = `${n.plural}.${n.group}`;
  const crds = kc.makeApiClient(ApiextensionsV1Api);
  if (await absent(() => crds.readCustomResourceDefinition({ name: crd }))) return `CRD ${crd}`;
  if (n.name === undefined) return undefined;
  const custom = kc.makeApiClient(CustomObjectsApi);
  const get = (): Promise<unknown> =>
    custom.getClusterCustomObject({ group: n.group, version: 'v1', plural: n.plural, name: n.name ?? '' });
  return (await absent(get)) ? `${crd}/${n.name}` : undefined;
}

/**
 * A missing node-bootstrapper token (or one not filled yet). What a filled one must hold besides the
 * token (`ca.crt`, a bootstrap identity the operator approves) is checked by bootstrapSecretProblem.
 */
async function bootstrapperToken(kc: KubeConfig): Promise<string | undefined> {
  const name = 'node-bootstrapper-token';
  const namespace = 'openshift-machine-config-operator';
  try {
    const s = await kc.makeApiClient(CoreV1Api).readNamespacedSecret({ name, namespace });
    return s.data?.['token'] ? undefined : `a token in secret ${namespace}/${name}`;
  } catch (e) {
    if (isNotFound(e)) return `secret ${namespace}/${name}`;
    throw e;
  }
}

/**
 * The OpenShift CRDs, configuration objects and the node-bootstrapper token the operator needs and the
 * cluster lacks (empty: an OpenShift cluster, or one seeded by `--seed`).
 */
export async function missingOpenShift(kc: KubeConfig): Promise<string[]> {
  const found = await Promise.all(NEEDED.map((n) => missingOne(kc, n)));
  const token = await bootstrapperToken(kc);
  return [...found, token].filter((m): m is string => m !== undefined);
}
