import { deepEqual, isObject, meta, str, strMap, type JsonObject } from './json.js';
import { errors } from './status.js';
import type { TypeHooks, WriteContext } from './type-hooks.js';

/** Admission for the core kinds that have rules beyond the generic store. */

function immutableCheck(old: JsonObject, next: JsonObject, ctx: WriteContext): void {
  if (old['immutable'] !== true) return;
  const n = str(meta(old)['name']) ?? '';
  const causes = [];
  if (next['immutable'] !== true)
    causes.push({ field: 'immutable', message: 'Forbidden: field is immutable when `immutable` is set' });
  for (const f of ['data', 'binaryData']) {
    if (!deepEqual(old[f] ?? {}, next[f] ?? {}))
      causes.push({ field: f, message: 'Forbidden: field is immutable when `immutable` is set' });
  }
  if (causes.length > 0) throw errors.invalid(ctx.type.kind, '', n, causes);
}

/** Secrets: `stringData` is folded into base64 `data`; `type` defaults to Opaque and never changes. */
function foldStringData(o: JsonObject): void {
  const sd = strMap(o['stringData']);
  if (Object.keys(sd).length > 0) {
    const data = isObject(o['data']) ? o['data'] : {};
    for (const [k, v] of Object.entries(sd)) data[k] = Buffer.from(v, 'utf8').toString('base64');
    o['data'] = data;
  }
  delete o['stringData'];
}

export const configMapHooks: TypeHooks = { update: immutableCheck };

/** ValidateSecret: a service-account token Secret must name its ServiceAccount (the controller fills the rest). */
function requireServiceAccountName(o: JsonObject): void {
  if (o['type'] !== 'kubernetes.io/service-account-token') return;
  const m = meta(o);
  if ((strMap(m['annotations'])['kubernetes.io/service-account.name'] ?? '') !== '') return;
  throw errors.invalid('Secret', '', str(m['name']) ?? '', [
    {
      reason: 'FieldValueRequired',
      field: 'metadata.annotations[kubernetes.io/service-account.name]',
      message: 'Required value',
    },
  ]);
}

export const secretHooks: TypeHooks = {
  create(next) {
    foldStringData(next);
    next['type'] ??= 'Opaque';
    requireServiceAccountName(next);
  },
  update(old, next, ctx) {
    foldStringData(next);
    if ((str(next['type']) ?? 'Opaque') !== (str(old['type']) ?? 'Opaque')) {
      throw errors.invalid('Secret', '', str(meta(old)['name']) ?? '', [
        { field: 'type', message: 'Invalid value: field is immutable' },
      ]);
    }
    next['type'] = old['type'] ?? 'Opaque';
    requireServiceAccountName(next);
    immutableCheck(old, next, ctx);
  },
};

export const namespaceHooks: TypeHooks = {
  create(next) {
    const m = meta(next);
    m['labels'] = { ...strMap(m['labels']), 'kubernetes.io/metadata.name': str(m['name']) ?? '' };
    next['spec'] = { finalizers: ['kubernetes'] };
    next['status'] = { phase: 'Active' };
  },
};

export const podHooks: TypeHooks = {
  create(next) {
    next['status'] = { phase: 'Pending', qosClass: 'BestEffort' };
  },
};
