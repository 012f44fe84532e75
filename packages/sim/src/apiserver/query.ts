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
