import type { ServerResponse } from 'node:http';
import { cannotHandle, decodeForWrite, invalidPatch, type DecodeStage } from './decode-request.js';
import { isObject } from './json.js';
import { unknownFields } from './prune.js';
import type { ResourceType } from './resource-type.js';

/** The fields of a write its kind does not have: from the Go type for built-ins, the schema for CRs. */
function unknownOf(t: ResourceType, obj: unknown, stage: DecodeStage): readonly string[] {
  if (!isObject(obj)) return [];
  const typed = decodeForWrite(t, obj, stage);
  if (typed !== undefined) return typed.unknown;
  return t.schema ? unknownFields(obj, t.schema) : [];
}

/** The parts of a request fieldValidation looks at. */
export interface FieldValidationCall {
  readonly type: ResourceType;
  readonly query: URLSearchParams;
  readonly res: ServerResponse;
}

/**
 * `fieldValidation` as kube-apiserver applies it to built-ins and custom resources alike: Strict refuses
 * unknown fields ("strict decoding error: unknown field ..."; 400 for bodies, 422 for JSON/merge patches),
 * Warn (the default) drops them with one `Warning` header each, Ignore drops them silently. A body that
 * does not decode at all is refused in every mode (type errors win over unknown fields, as upstream).
 */
export function checkFieldValidation(
  c: FieldValidationCall,
  obj: unknown,
  stage: DecodeStage = 'body',
): void {
  const { type: t, res } = c;
  const mode = c.query.get('fieldValidation') ?? 'Warn';
  const unknown = unknownOf(t, obj, stage);
  if (unknown.length === 0 || mode === 'Ignore') return;
  const detail = unknown.map((f) => `unknown field "${f}"`).join(', ');
  if (mode === 'Strict') {
    const message = `strict decoding error: ${detail}`;
    throw stage === 'patch' && isObject(obj) ? invalidPatch(obj, message) : cannotHandle(t, message);
  }
  if (!res.headersSent)
    res.setHeader(
      'Warning',
      unknown.map((f) => `299 - "unknown field \\"${f}\\""`),
    );
}
