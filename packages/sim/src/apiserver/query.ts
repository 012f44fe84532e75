import { errors } from './status.js';

/** A non-negative integer query parameter, undefined when absent. */
export function optionalInt(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw errors.badRequest(`${name}: invalid value "${v}": must be a non-negative integer`);
  return n;
}

/** resourceVersion as the storage layer accepts it: absent, "" or a decimal number (else 400). */
export function resourceVersionParam(q: URLSearchParams): string | undefined {
  const v = q.get('resourceVersion') ?? undefined;
  if (v !== undefined && v !== '' && !/^\d+$/.test(v)) {
    throw errors.badRequest(`resourceVersion: Invalid value: "${v}": must be a non-negative integer`);
  }
  return v;
}
