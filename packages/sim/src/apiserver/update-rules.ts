import { clone, deepEqual, meta, str, strList, type JsonObject } from './json.js';
import { pruneCustomResource } from './prune.js';
import { groupVersion, hasStatus, type ResourceType } from './resource-type.js';
import { errors } from './status.js';
import { specPart } from './write-rules.js';

/** Metadata only the server sets; an update always keeps the stored values. */
const SYSTEM_META = [
  'name',
  'namespace',
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'resourceVersion',
  'generateName',
];

/** Sets kind/apiVersion, rejecting a body that names another type. */
export function checkKind(t: ResourceType, body: JsonObject): void {
  const kind = str(body['kind']);
  const apiVersion = str(body['apiVersion']);
  const wrongKind = kind !== undefined && kind !== t.kind;
  if (wrongKind || (apiVersion !== undefined && apiVersion !== groupVersion(t))) {
    throw errors.badRequest(
      `the API version in the data (${apiVersion ?? ''}) does not match the expected API version (${groupVersion(t)})`,
    );
  }
  body['kind'] = t.kind;
  body['apiVersion'] = groupVersion(t);
}

/** resourceVersion, name and uid in an update body must agree with the stored object. */
export function checkUpdatePreconditions(
  t: ResourceType,
  old: JsonObject,
  body: JsonObject,
  name: string,
): void {
  const bm = meta(body);
  const om = meta(old);
  const rv = str(bm['resourceVersion']) ?? '';
  if (rv !== '' && rv !== str(om['resourceVersion'])) {
    throw errors.conflict(
      t.plural,
      t.group,
      name,
      'the object has been modified; please apply your changes to the latest version and try again',
    );
  }
  const bodyName = str(bm['name']);
  if (bodyName !== undefined && bodyName !== name) {
    throw errors.badRequest(
      `the name of the object (${bodyName}) does not match the name on the URL (${name})`,
    );
  }
  const uid = str(bm['uid']) ?? '';
  if (uid !== '' && uid !== str(om['uid'])) {
    throw errors.conflict(
      t.plural,
      t.group,
      name,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${str(om['uid']) ?? ''}`,
    );
  }
}

/** /status: the old object with the new .status (built-ins also take labels/annotations). */
function statusOnly(t: ResourceType, old: JsonObject, incoming: JsonObject): JsonObject {
  const next: JsonObject = { ...clone(old), status: incoming['status'] ?? null };
  if (next['status'] === null) delete next['status'];
  // The custom-resource status strategy copies the old object and takes only .status.
  if (!t.builtin) return next;
  const m = meta(next);
  const im = meta(incoming);
  for (const k of ['labels', 'annotations']) if (im[k] !== undefined) m[k] = im[k] ?? null;
  return next;
}

/** The status split (row 4): /status takes only status; the main resource never writes status. */
function splitStatus(t: ResourceType, old: JsonObject, incoming: JsonObject, sub: string): JsonObject {
  if (sub === 'status') return statusOnly(t, old, incoming);
  if (hasStatus(t) && sub === '') {
    if (old['status'] === undefined) delete incoming['status'];
    else incoming['status'] = clone(old['status']);
  }
  return incoming;
}

function checkNoNewFinalizers(t: ResourceType, om: JsonObject, nm: JsonObject): void {
  if (om['deletionTimestamp'] === undefined) return;
  const added = strList(nm['finalizers']).filter((f) => !strList(om['finalizers']).includes(f));
  if (added.length === 0) return;
  throw errors.invalid(t.kind, t.group, str(om['name']) ?? '', [
    {
      field: 'metadata.finalizers',
      message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"${added.join('", "')}"}`,
      reason: 'FieldValueForbidden',
    },
  ]);
}

/** The object an update stores: system metadata kept, the status split applied, generation bumped on spec changes. */
export function mergeForUpdate(t: ResourceType, old: JsonObject, body: JsonObject, sub: string): JsonObject {
  const incoming = t.schema ? pruneCustomResource(body, t.schema) : body;
  const next = splitStatus(t, old, incoming, sub);
  const om = meta(old);
  const nm = meta(next);
  for (const k of SYSTEM_META) {
    if (om[k] === undefined) delete nm[k];
    else nm[k] = om[k] ?? null;
  }
  checkNoNewFinalizers(t, om, nm);
  if (t.generation && !deepEqual(specPart(old), specPart(next))) {
    nm['generation'] = (typeof om['generation'] === 'number' ? om['generation'] : 0) + 1;
  }
  return next;
}
