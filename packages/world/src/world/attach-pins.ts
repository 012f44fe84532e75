import { CoreV1Api, type KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import {
  ConfigMapHostKeyStore,
  HOST_KEYS_CONFIGMAP,
  NODE_RECORD_LABEL,
  PENDING_HOST_KEYS_CONFIGMAP,
  decodeNodeRecord,
  nodeRecordName,
  type NodeRecord,
} from '@wmco/core/internal';
import { OPERATOR_NAMESPACE } from '@wmco/sim';

/** Marks the Secret and ConfigMap attach mode wrote, so a later run may replace them (and only them). */
export const ATTACH_LABEL = 'wmco.openshift.io/sim-attach';

/** Host-key pins for the windows-instances keys a run is about to use, split by whose they are. */
export interface StalePins {
  /** Pins of attach mode's own earlier simulated hosts: safe to clear. */
  readonly own: readonly string[];
  /** Pins it cannot tell are its own (a real host's, perhaps): never cleared by it. */
  readonly foreign: readonly string[];
}

async function readConfigMap(core: CoreV1Api, name: string): Promise<V1ConfigMap | undefined> {
  try {
    return await core.readNamespacedConfigMap({ name, namespace: OPERATOR_NAMESPACE });
  } catch (e) {
    if ((e as { code?: unknown }).code === 404) return undefined;
    throw e;
  }
}

/** 127.0.0.0/8 or ::1: the operator refuses such instances outside the simulation (`allowLoopback`). */
function isLoopback(key: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(key) || key === '::1';
}

/** The node records (ADR 0035) of the operator's namespace that pin a host key. */
async function pinningRecords(core: CoreV1Api): Promise<NodeRecord[]> {
  const list = await core.listNamespacedConfigMap({
    namespace: OPERATOR_NAMESPACE,
    labelSelector: NODE_RECORD_LABEL,
  });
  return list.items.map(decodeNodeRecord).filter((r): r is NodeRecord => r?.hostKey !== undefined);
}

/** The keys a record pins under: its `windows-instances` key, address and DNS name. */
const recordKeys = (r: NodeRecord): string[] => [r.instance, r.address, ...(r.dnsName ? [r.dnsName] : [])];

/** Every key pinned in any of the operator's pin homes (ADR 0038), the old ConfigMap included. */
async function pinnedKeys(core: CoreV1Api): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const name of [HOST_KEYS_CONFIGMAP, PENDING_HOST_KEYS_CONFIGMAP])
    for (const k of Object.keys((await readConfigMap(core, name))?.data ?? {})) keys.add(k);
  for (const r of await pinningRecords(core)) for (const k of recordKeys(r)) keys.add(k);
  return keys;
}

/**
 * The pins for `keys`, wherever the operator keeps them: a node record, `windows-ssh-host-keys-pending`,
 * or the `windows-ssh-host-keys` an operator before ADR 0038 left (moved into the others on start). A pin is attach mode's own when its key is a loopback
 * address (only a simulated host has one) or is listed in the `windows-instances` ConfigMap an earlier
 * attach-mode run left (labelled ATTACH_LABEL): the operator that run started pinned its simulated hosts,
 * whose keys died with them; a new simulated host under the same name has a new key, so the pin could
 * only refuse it.
 */
export async function stalePins(kc: KubeConfig, keys: readonly string[]): Promise<StalePins> {
  const core = kc.makeApiClient(CoreV1Api);
  const pins = await pinnedKeys(core);
  const pinned = keys.filter((k) => pins.has(k));
  if (pinned.length === 0) return { own: [], foreign: [] };
  const earlier = await readConfigMap(core, 'windows-instances');
  const listed = earlier?.metadata?.labels?.[ATTACH_LABEL] === 'true' ? (earlier.data ?? {}) : {};
  const own = (k: string): boolean => isLoopback(k) || listed[k] !== undefined;
  return { own: pinned.filter(own), foreign: pinned.filter((k) => !own(k)) };
}

/** The refusal for pins attach mode cannot tell are its own. */
export function foreignPinsMessage(keys: readonly string[]): string {
  return (
    `the operator's node records or ConfigMap ${OPERATOR_NAMESPACE}/${PENDING_HOST_KEYS_CONFIGMAP} ` +
    `(or ${HOST_KEYS_CONFIGMAP}) pin SSH host keys for ${keys.join(', ')}, ` +
    "which this run's simulated hosts are about to use (with new keys, so the operator would refuse them), " +
    'and no earlier attach-mode run listed them. If those hosts are gone, remove their entries ' +
    `(kubectl -n ${OPERATOR_NAMESPACE} edit configmap ${PENDING_HOST_KEYS_CONFIGMAP}; a record: ` +
    `kubectl -n ${OPERATOR_NAMESPACE} delete configmap -l ${NODE_RECORD_LABEL}=true with the host's name), or list the hosts under ` +
    'other names; a run with --cleanup removes the pins of its hosts when it ends'
  );
}

/**
 * Removes the pins of `keys` (the other entries stay): from both pin ConfigMaps, and the node records
 * that pin them (a record of an earlier run's simulated host, whose host is gone).
 */
export async function clearPins(kc: KubeConfig, keys: readonly string[]): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  for (const name of [HOST_KEYS_CONFIGMAP, PENDING_HOST_KEYS_CONFIGMAP]) {
    if ((await readConfigMap(core, name)) === undefined) continue;
    const store = new ConfigMapHostKeyStore(core, OPERATOR_NAMESPACE, name);
    await store.forgetHosts(keys);
  }
  const records = (await pinningRecords(core)).filter((r) => recordKeys(r).some((k) => keys.includes(k)));
  for (const r of records) await deleteRecord(core, r);
}

async function deleteRecord(core: CoreV1Api, r: NodeRecord): Promise<void> {
  const name = nodeRecordName(r.source, r.instance);
  await core.deleteNamespacedConfigMap({ name, namespace: OPERATOR_NAMESPACE }).catch((e: unknown) => {
    if ((e as { code?: unknown }).code !== 404) throw e;
  });
}
