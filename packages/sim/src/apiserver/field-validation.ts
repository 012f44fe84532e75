import type { ServerResponse } from 'node:http';
import { isObject } from './json.js';
import { unknownFields } from './prune.js';
import type { ResourceType } from './resource-type.js';
import { errors } from './status.js';

/**
 * `fieldValidation` for custom resources (built-ins carry no schema here, so they are not checked):
 * Strict rejects unknown fields with the real 400 message, Warn (the default, as upstream) adds a `Warning`
 * header per dropped field, Ignore prunes silently.
 */
export function checkFieldValidation(
  t: ResourceType,
  q: URLSearchParams,
  res: ServerResponse,
  obj: unknown,
): void {
  const mode = q.get('fieldValidation') ?? 'Warn';
  if (!t.schema || !isObject(obj) || mode === 'Ignore') return;
  const unknown = unknownFields(obj, t.schema);
  if (unknown.length === 0) return;
  const detail = unknown.map((f) => `unknown field "${f}"`).join(', ');
  if (mode === 'Strict') {
    throw errors.badRequest(
      `${t.kind} in version "${t.version}" cannot be handled as a ${t.kind}: strict decoding error: ${detail}`,
    );
  }
  if (!res.headersSent)
    res.setHeader(
      'Warning',
      unknown.map((f) => `299 - "unknown field \\"${f}\\""`),
    );
}
