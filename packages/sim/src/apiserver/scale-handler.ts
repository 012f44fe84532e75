import { isDryRun } from './dry-run.js';
import { mediaType, parseBody, parseObjectBody, readBody, sendJson } from './http-io.js';
import { isObject, type JsonObject } from './json.js';
import type { ObjectWriter } from './object-writer.js';
import { applyPatch, patchKind, requirePatchBody } from './patching.js';
import type { ResourceCall } from './resource-handler.js';
import { objectFromScale, patchBase, readScale } from './scale.js';
import { errors } from './status.js';

/** GET/PUT/PATCH `.../<resource>/<name>/scale` of a custom resource whose CRD declares `subresources.scale`. */

function current(c: ResourceCall, name: string): JsonObject {
  const o = c.ctx.store.get(c.type, c.info.namespace, name);
  if (!o) throw errors.notFound(c.type.plural, c.type.group, name);
  return o;
}

function writer(c: ResourceCall, optionsKind: string): ObjectWriter {
  return isDryRun(c.query, optionsKind) ? c.ctx.writer.forDryRun() : c.ctx.writer;
}

/** Writes the object a Scale describes through the main resource (its strategy keeps status) and answers the new Scale. */
function store(c: ResourceCall, w: ObjectWriter, name: string, scale: JsonObject): void {
  const next = objectFromScale(c.type, current(c, name), scale, name);
  const target = { type: c.type, namespace: c.info.namespace, name, user: c.user };
  sendJson(c.res, 200, readScale(c.type, w.update(target, next)));
}

export function getScale(c: ResourceCall, name: string): void {
  sendJson(c.res, 200, readScale(c.type, current(c, name)));
}

export async function updateScale(c: ResourceCall, name: string): Promise<void> {
  const body = parseObjectBody(c.req, await readBody(c.req));
  store(c, writer(c, 'UpdateOptions'), name, body);
}

/** The patch applies to the Scale (JSON, merge or apply; strategic is 415 as on the custom resource itself). */
export async function patchScale(c: ResourceCall, name: string): Promise<void> {
  const kind = patchKind(mediaType(c.req), c.type);
  const body = parseBody(c.req, await readBody(c.req));
  requirePatchBody(body);
  const patched = applyPatch(kind, patchBase(c.type, current(c, name)), body);
  if (!isObject(patched)) throw errors.badRequest('the patched object is not a JSON object');
  store(c, writer(c, 'PatchOptions'), name, patched);
}
