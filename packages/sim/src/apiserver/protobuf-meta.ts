import type { JsonObject } from './json.js';
import type { PbMessage } from './protobuf-reader.js';

/** ObjectMeta and the helpers every protobuf decoder shares (k8s.io/apimachinery meta/v1 generated.proto). */
export type Fields = Record<string, unknown>;

export function compact(o: Fields): JsonObject {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as JsonObject;
}

export function time(m: PbMessage | undefined): string | undefined {
  const s = m?.int(1);
  return s === undefined ? undefined : new Date(s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}

function ownerRef(m: PbMessage): JsonObject {
  return compact({
    apiVersion: m.str(5),
    kind: m.str(1),
    name: m.str(3),
    uid: m.str(4),
    controller: m.bool(6),
    blockOwnerDeletion: m.bool(7),
  });
}

export function objectMeta(m: PbMessage | undefined): JsonObject {
  if (!m) return {};
  const owners = m.msgs(13).map(ownerRef);
  const finalizers = m.strs(14);
  return compact({
    name: m.str(1),
    generateName: m.str(2),
    namespace: m.str(3),
    uid: m.str(5),
    resourceVersion: m.str(6),
    generation: m.int(7),
    creationTimestamp: time(m.msg(8)),
    deletionTimestamp: time(m.msg(9)),
    labels: m.map(11),
    annotations: m.map(12),
    ownerReferences: owners.length > 0 ? owners : undefined,
    finalizers: finalizers.length > 0 ? finalizers : undefined,
  });
}
