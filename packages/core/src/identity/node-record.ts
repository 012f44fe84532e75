import { createHash } from 'node:crypto';
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { PinnedHostKey } from '../host/host-key-store.js';
import type { CloudTag } from '../provider/capabilities/instance-tagging.js';

/** The record source of an embedder's own host source (ADR 0039): `source/<its id>`. */
export type HostSourceRecord = `source/${string}`;

/**
 * Where an instance comes from: a `windows-instances` entry, a Machine, or a host of an embedder's own
 * source (`source/<id>`). Only the operator writes records (an object no node can write), so a Node can
 * never say which source it belongs to: every source reads its own records by this key.
 */
export type RecordSource = 'windows-instances' | 'machine' | HostSourceRecord;

/** Source ids an embedder may not take: the built-in sources' names and record sources. */
const RESERVED_SOURCE_IDS = new Set(['byoh', 'machine', 'machines', 'windows-instances']);
/** A DNS-1123 label: what an embedder's source id must be. */
const SOURCE_ID = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Why `id` cannot name an embedder's source, or undefined when it can. */
export function sourceIdProblem(id: string): string | undefined {
  if (!SOURCE_ID.test(id))
    return `source id ${JSON.stringify(id)} is not a DNS-1123 label (a-z, 0-9, '-', at most 63)`;
  if (RESERVED_SOURCE_IDS.has(id)) return `source id ${JSON.stringify(id)} is reserved for a built-in source`;
  return undefined;
}

/** The record source of the embedder's source `id`; throws on an id `sourceIdProblem` refuses. */
export function hostSourceRecord(id: string): HostSourceRecord {
  const problem = sourceIdProblem(id);
  if (problem !== undefined) throw new Error(problem);
  return `source/${id}`;
}

/** Whether `v` is a record source: a built-in one, or `source/<id>` with an id an embedder may take. */
export function isRecordSource(v: unknown): v is RecordSource {
  if (v === 'windows-instances' || v === 'machine') return true;
  return typeof v === 'string' && v.startsWith('source/') && sourceIdProblem(v.slice(7)) === undefined;
}

/** Whether instances of `source` are listed hosts keyed by address (not Machines). */
export function isListedSource(source: RecordSource): boolean {
  return source !== 'machine';
}

/**
 * The operator's own record of one joined instance (ADR 0035), written by the operator at join into an
 * object no node can write, and read by every later decision instead of the Node's fields.
 */
export interface NodeRecord {
  readonly source: RecordSource;
  /** The `windows-instances` key (or the address an embedder's source lists), or `<namespace>/<name>` of the Machine. */
  readonly instance: string;
  /** The IPv4 address the operator connected to at join. */
  readonly address: string;
  /** The DNS name the instance is listed under (lower-cased), when listed by name. */
  readonly dnsName?: string;
  /** The node name the operator decided. */
  readonly nodeName: string;
  /** The SSH user the operator joined the host with. */
  readonly username: string;
  /** The SSH host key pinned for the host when the record was written (a copy of the pin store's). */
  readonly hostKey?: PinnedHostKey;
  /** The cloud instance behind the address, where the cloud said. */
  readonly cloudInstanceId?: string;
  /** The tags the operator itself applied to the cloud instance: the only ones a removal takes back. */
  readonly appliedTags: readonly CloudTag[];
  /** When the record was written (ISO 8601). */
  readonly recordedAt: string;
  /** Made on start from data of a node joined before records existed (issue 27). */
  readonly migrated?: boolean;
}

/** Label every record ConfigMap carries: the operator watches records by it. */
export const NODE_RECORD_LABEL = 'windowsmachineconfig.openshift.io/node-record';
/** The ConfigMap key holding the record as JSON. */
export const NODE_RECORD_FIELD = 'record.json';

/** `windows-node-record-<24 hex of sha256(source NUL instance)>`: a valid name whatever the key. */
export function nodeRecordName(source: RecordSource, instance: string): string {
  const hash = createHash('sha256').update(`${source}\0${instance}`).digest('hex').slice(0, 24);
  return `windows-node-record-${hash}`;
}

export function nodeRecordConfigMap(namespace: string, record: NodeRecord): V1ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: nodeRecordName(record.source, record.instance),
      namespace,
      labels: { [NODE_RECORD_LABEL]: 'true' },
    },
    data: { [NODE_RECORD_FIELD]: JSON.stringify(record) },
  };
}

const str = (v: unknown): v is string => typeof v === 'string' && v !== '';

function tagsOf(v: unknown): CloudTag[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const tags = v.filter(
    (t): t is CloudTag =>
      typeof t === 'object' &&
      t !== null &&
      str((t as CloudTag).key) &&
      typeof (t as CloudTag).value === 'string',
  );
  return tags.length === v.length ? tags.map((t) => ({ key: t.key, value: t.value })) : undefined;
}

function hostKeyOf(v: unknown): PinnedHostKey | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const k = v as PinnedHostKey;
  return str(k.type) && str(k.base64) ? { type: k.type, base64: k.base64 } : undefined;
}

/**
 * The record a ConfigMap holds, or undefined when it holds none that is whole (a record ConfigMap
 * someone edited by hand is not trusted: its instance is then treated as having no record). The
 * ConfigMap's name must be the one the record's key gives, so a record cannot be copied under another.
 */
export function decodeNodeRecord(cm: V1ConfigMap): NodeRecord | undefined {
  const raw = parsed(cm.data?.[NODE_RECORD_FIELD]);
  if (raw === undefined) return undefined;
  const { source, instance, address, nodeName, username, recordedAt } = raw;
  if (!keyed(cm, source, instance) || ![address, nodeName, username, recordedAt].every(str)) return undefined;
  const tags = tagsOf(raw['appliedTags'] ?? []);
  if (tags === undefined) return undefined;
  return {
    source,
    instance: instance as string,
    address: address as string,
    nodeName: nodeName as string,
    username: username as string,
    recordedAt: recordedAt as string,
    appliedTags: tags,
    ...optionalFields(raw),
  };
}

/** A known source and an instance key whose record name is the ConfigMap's own. */
function keyed(cm: V1ConfigMap, source: unknown, instance: unknown): source is RecordSource {
  if (!isRecordSource(source)) return false;
  return str(instance) && cm.metadata?.name === nodeRecordName(source, instance);
}

function parsed(json: string | undefined): Record<string, unknown> | undefined {
  try {
    const raw: unknown = JSON.parse(json ?? '');
    return typeof raw === 'object' && raw !== null && !Array.isArray(raw)
      ? (raw as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function optionalFields(
  raw: Record<string, unknown>,
): Pick<NodeRecord, 'dnsName' | 'hostKey' | 'cloudInstanceId' | 'migrated'> {
  const { dnsName, cloudInstanceId } = raw;
  const hostKey = hostKeyOf(raw['hostKey']);
  return {
    ...(str(dnsName) ? { dnsName } : {}),
    ...(hostKey ? { hostKey } : {}),
    ...(str(cloudInstanceId) ? { cloudInstanceId } : {}),
    ...(raw['migrated'] === true ? { migrated: true } : {}),
  };
}
