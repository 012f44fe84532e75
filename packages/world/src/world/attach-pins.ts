import { CoreV1Api, type KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import { ConfigMapHostKeyStore, HOST_KEYS_CONFIGMAP } from '@wmco/core/internal';
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

/**
 * The pins in `windows-ssh-host-keys` for `keys`. A pin is attach mode's own when its key is a loopback
 * address (only a simulated host has one) or is listed in the `windows-instances` ConfigMap an earlier
 * attach-mode run left (labelled ATTACH_LABEL): the operator that run started pinned its simulated hosts,
 * whose keys died with them; a new simulated host under the same name has a new key, so the pin could
 * only refuse it.
 */
export async function stalePins(kc: KubeConfig, keys: readonly string[]): Promise<StalePins> {
  const core = kc.makeApiClient(CoreV1Api);
  const pins = (await readConfigMap(core, HOST_KEYS_CONFIGMAP))?.data ?? {};
  const pinned = keys.filter((k) => pins[k] !== undefined);
  if (pinned.length === 0) return { own: [], foreign: [] };
  const earlier = await readConfigMap(core, 'windows-instances');
  const listed = earlier?.metadata?.labels?.[ATTACH_LABEL] === 'true' ? (earlier.data ?? {}) : {};
  const own = (k: string): boolean => isLoopback(k) || listed[k] !== undefined;
  return { own: pinned.filter(own), foreign: pinned.filter((k) => !own(k)) };
}

/** The refusal for pins attach mode cannot tell are its own. */
export function foreignPinsMessage(keys: readonly string[]): string {
  return (
    `ConfigMap ${OPERATOR_NAMESPACE}/${HOST_KEYS_CONFIGMAP} pins SSH host keys for ${keys.join(', ')}, ` +
    "which this run's simulated hosts are about to use (with new keys, so the operator would refuse them), " +
    'and no earlier attach-mode run listed them. If those hosts are gone, remove their entries ' +
    `(kubectl -n ${OPERATOR_NAMESPACE} edit configmap ${HOST_KEYS_CONFIGMAP}), or list the hosts under ` +
    'other names; a run with --cleanup removes the pins of its hosts when it ends'
  );
}

/** Removes the pins of `keys` (the other entries stay). */
export async function clearPins(kc: KubeConfig, keys: readonly string[]): Promise<void> {
  const store = new ConfigMapHostKeyStore(kc.makeApiClient(CoreV1Api), OPERATOR_NAMESPACE);
  for (const k of keys) await store.forget(k);
}
