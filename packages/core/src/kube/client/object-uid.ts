import type { CoreV1Api } from '@kubernetes/client-node';
import type { ObjectRef } from '../event-recorder.js';

/**
 * The uid of the object an event is about, read from the API server when the caller did not know it.
 * `kubectl describe` lists only the events whose `involvedObject.uid` is the object's uid (it asks the
 * server with an `involvedObject.uid=` field selector), so an event without one is invisible there.
 * Kinds the operator does not read answer undefined; so does an object that is gone.
 */
export async function lookUpUid(api: CoreV1Api, ref: ObjectRef): Promise<string | undefined> {
  if (ref.uid !== undefined) return ref.uid;
  if (ref.apiVersion !== 'v1') return undefined;
  try {
    if (ref.kind === 'Node') return (await api.readNode({ name: ref.name })).metadata?.uid;
    if (ref.kind === 'ConfigMap' && ref.namespace !== undefined) {
      const cm = await api.readNamespacedConfigMap({ name: ref.name, namespace: ref.namespace });
      return cm.metadata?.uid;
    }
  } catch {
    // Not found or not readable: the event is still recorded, only without a uid.
  }
  return undefined;
}
