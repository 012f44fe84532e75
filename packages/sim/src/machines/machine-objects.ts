import { isObject, meta, str, strMap, type JsonObject } from '../apiserver/json.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';
import type { ResourceType } from '../apiserver/resource-type.js';

export const MACHINE_GROUP = 'machine.openshift.io';
export const OS_ID_LABEL = 'machine.openshift.io/os-id';
export const DELETE_MACHINE_ANNOTATION = 'machine.openshift.io/delete-machine';
/** machine-api's Machine finalizer (pkg/apis/machine/v1beta1: MachineFinalizer). */
export const MACHINE_FINALIZER = 'machine.machine.openshift.io';

export function obj(v: unknown): JsonObject {
  return isObject(v) ? v : {};
}

export function machineType(w: ObjectWriter): ResourceType {
  return w.registry.mustFind(MACHINE_GROUP, 'v1beta1', 'machines');
}

export function machineSetType(w: ObjectWriter): ResourceType {
  return w.registry.mustFind(MACHINE_GROUP, 'v1beta1', 'machinesets');
}

export function nameOf(o: JsonObject): string {
  return str(meta(o)['name']) ?? '';
}

export function namespaceOf(o: JsonObject): string {
  return str(meta(o)['namespace']) ?? '';
}

export function deleting(o: JsonObject): boolean {
  return meta(o)['deletionTimestamp'] !== undefined;
}

export function labels(o: JsonObject): Record<string, string> {
  return strMap(meta(o)['labels']);
}

/** The Machine's status.addresses as {type, address}. */
export function machineAddresses(m: JsonObject): { type: string; address: string }[] {
  const list = obj(m['status'])['addresses'];
  return (Array.isArray(list) ? list.filter(isObject) : []).map((a) => ({
    type: str(a['type']) ?? '',
    address: str(a['address']) ?? '',
  }));
}

export function nodeRefName(m: JsonObject): string | undefined {
  return str(obj(obj(m['status'])['nodeRef'])['name']);
}

/** The uid of the object's controller owner, if any. */
export function controllerUid(o: JsonObject): string | undefined {
  const refs = meta(o)['ownerReferences'];
  const owner = (Array.isArray(refs) ? refs.filter(isObject) : []).find((r) => r['controller'] === true);
  return str(owner?.['uid']);
}
