import type { IncomingMessage, ServerResponse } from 'node:http';
import { evict } from './eviction.js';
import { servePodLog } from './pod-logs.js';
import { checkFieldValidation } from './field-validation.js';
import { review } from './reviews.js';
import { mediaType, parseBody, parseObjectBody, readBody, sendJson } from './http-io.js';
import { isObject, meta, str } from './json.js';
import type { Selection } from './object-store.js';
import { applyPatch, patchKind, requirePatchBody } from './patching.js';
import type { RequestUser } from './request-user.js';
import type { ResourceRequest } from './request-info.js';
import { groupVersion, type ResourceType } from './resource-type.js';
import { parseFieldSelector, parseLabelSelector } from './selectors.js';
import type { ServerContext } from './server-context.js';
import { errors } from './status.js';
import { optionalInt, resourceVersionParam } from './query.js';
import { isDryRun } from './dry-run.js';
import type { ObjectWriter } from './object-writer.js';
import { deleteOptions } from './delete-options.js';
import { includeObject, toTable, wantsTable } from './table.js';
import { serveWatch } from './watch-stream.js';
import { getScale, patchScale, updateScale } from './scale-handler.js';

export interface ResourceCall {
  readonly ctx: ServerContext;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly info: ResourceRequest;
  readonly type: ResourceType;
  readonly user: RequestUser;
  readonly query: URLSearchParams;
  readonly verb: string;
}

function selection(c: ResourceCall): Selection {
  const q = c.query;
  const fields = [
    'metadata.name',
    ...(c.type.namespaced ? ['metadata.namespace'] : []),
    ...c.type.fieldSelectors,
  ];
  return {
    ...(c.info.namespace !== undefined ? { namespace: c.info.namespace } : {}),
    labels: parseLabelSelector(q.get('labelSelector') ?? undefined),
    fields: parseFieldSelector(q.get('fieldSelector') ?? undefined, fields, `${c.type.kind}`),
  };
}

function list(c: ResourceCall): void {
  const rv = resourceVersionParam(c.query);
  if (rv !== undefined && rv !== '' && rv !== '0' && c.query.get('resourceVersionMatch') === 'Exact') {
    c.ctx.store.log.assertFresh(Number(rv));
  }
  const page = c.ctx.store.list(
    c.type,
    selection(c),
    optionalInt(c.query, 'limit'),
    c.query.get('continue') ?? undefined,
  );
  const listMeta = {
    resourceVersion: page.resourceVersion,
    ...(page.continueToken ? { continue: page.continueToken } : {}),
    ...(page.remaining !== undefined ? { remainingItemCount: page.remaining } : {}),
  };
  if (wantsTable(c.req)) {
    sendJson(
      c.res,
      200,
      toTable(c.type, page.items, { includeObject: includeObject(c.query), withColumns: true, listMeta }),
    );
    return;
  }
  sendJson(c.res, 200, {
    kind: `${c.type.kind}List`,
    apiVersion: groupVersion(c.type),
    metadata: listMeta,
    items: page.items,
  });
}

function get(c: ResourceCall, name: string): void {
  const o = c.ctx.store.get(c.type, c.info.namespace, name);
  if (!o) throw errors.notFound(c.type.plural, c.type.group, name);
  const table = wantsTable(c.req) && c.info.subresource === '';
  sendJson(
    c.res,
    200,
    table ? toTable(c.type, [o], { includeObject: includeObject(c.query), withColumns: true }) : o,
  );
}

/** The writer for this request: `dryRun=All` validates and admits but stores nothing. */
function writerFor(c: ResourceCall, optionsKind: string): ObjectWriter {
  return isDryRun(c.query, optionsKind) ? c.ctx.writer.forDryRun() : c.ctx.writer;
}

async function create(c: ResourceCall): Promise<void> {
  const writer = writerFor(c, 'CreateOptions');
  const body = parseObjectBody(c.req, await readBody(c.req));
  checkFieldValidation(c, body);
  sendJson(c.res, 201, writer.create(c.type, c.info.namespace, body, c.user));
}

async function update(c: ResourceCall, name: string): Promise<void> {
  const writer = writerFor(c, 'UpdateOptions');
  const body = parseObjectBody(c.req, await readBody(c.req));
  checkFieldValidation(c, body);
  const opts = { subresource: c.info.subresource, user: c.user };
  sendJson(c.res, 200, writer.update({ type: c.type, namespace: c.info.namespace, name, ...opts }, body));
}

async function patch(c: ResourceCall, name: string): Promise<void> {
  const writer = writerFor(c, 'PatchOptions');
  const kind = patchKind(mediaType(c.req), c.type);
  const body = parseBody(c.req, await readBody(c.req));
  requirePatchBody(body);
  const ns = c.info.namespace;
  if (kind === 'apply' && !c.ctx.store.get(c.type, ns, name)) {
    if (!isObject(body)) throw errors.badRequest('an apply patch must be a JSON object');
    meta(body)['name'] = name;
    sendJson(c.res, 201, writer.create(c.type, ns, body, c.user));
    return;
  }
  const opts = { subresource: c.info.subresource, user: c.user };
  sendJson(
    c.res,
    200,
    writer.mutate({ type: c.type, namespace: ns, name, ...opts }, (cur) => {
      const next = applyPatch(kind, cur, body);
      checkFieldValidation(c, next, kind === 'apply' ? 'body' : 'patch');
      return next;
    }),
  );
}

async function remove(c: ResourceCall, name: string): Promise<void> {
  const opts = deleteOptions(parseBody(c.req, await readBody(c.req)), c.query);
  const writer = opts.dryRun ? c.ctx.writer.forDryRun() : c.ctx.writer;
  sendJson(c.res, 200, writer.delete(c.type, c.info.namespace, name, opts));
}

async function removeCollection(c: ResourceCall): Promise<void> {
  const opts = deleteOptions(parseBody(c.req, await readBody(c.req)), c.query);
  const writer = opts.dryRun ? c.ctx.writer.forDryRun() : c.ctx.writer;
  const page = c.ctx.store.list(c.type, selection(c));
  for (const o of page.items) writer.delete(c.type, c.info.namespace, str(meta(o)['name']) ?? '', opts);
  sendJson(c.res, 200, {
    kind: `${c.type.kind}List`,
    apiVersion: groupVersion(c.type),
    metadata: {},
    items: page.items,
  });
}

function watch(c: ResourceCall): void {
  serveWatch(
    c.res,
    c.ctx.store,
    {
      type: c.type,
      selection: selection(c),
      resourceVersion: resourceVersionParam(c.query),
      allowBookmarks: c.query.get('allowWatchBookmarks') === 'true',
      timeoutSeconds: optionalInt(c.query, 'timeoutSeconds'),
      ...(wantsTable(c.req)
        ? {
            render: (o, first) =>
              toTable(c.type, [o], { includeObject: includeObject(c.query), withColumns: first }),
          }
        : {}),
    },
    c.ctx.watches,
  );
}

/** Reviews answer create only. */
function onlyCreate(c: ResourceCall): void {
  if (c.type.review === true && c.verb !== 'create') {
    throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
  }
}

const GETS: Readonly<Record<string, (c: ResourceCall, name: string) => void | Promise<void>>> = {
  scale: getScale,
  log: servePodLog,
};

const VERBS: Readonly<Record<string, (c: ResourceCall, name: string) => void | Promise<void>>> = {
  list: (c) => list(c),
  watch: (c) => watch(c),
  get: (c, name) => (GETS[c.info.subresource] ?? get)(c, name),
  create: (c, name) =>
    c.info.subresource === 'eviction' ? evict(c, name) : c.type.review ? review(c) : create(c),
  update: (c, name) => (c.info.subresource === 'scale' ? updateScale(c, name) : update(c, name)),
  patch: (c, name) => (c.info.subresource === 'scale' ? patchScale(c, name) : patch(c, name)),
  delete: (c, name) => remove(c, name),
  deletecollection: (c) => removeCollection(c),
};

/** Dispatches a resource request whose verb was already authorized. */
export async function handleResource(c: ResourceCall): Promise<void> {
  onlyCreate(c);
  const fn = VERBS[c.verb];
  if (!fn) throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
  await fn(c, c.info.name ?? '');
}
