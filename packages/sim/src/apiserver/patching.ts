import { applyJsonPatch, applyMergePatch } from './json-patch.js';
import type { Json, JsonObject } from './json.js';
import type { ResourceType } from './resource-type.js';
import { ApiError, errors } from './status.js';
import { applyStrategicMergePatch } from './strategic-merge.js';

export type PatchKind = 'json' | 'merge' | 'strategic' | 'apply';

const TYPES: Readonly<Record<string, PatchKind>> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+cbor': 'apply',
};

/** The patch kind for a Content-Type, enforcing 415 for strategic merge on custom resources (row 6). */
export function patchKind(contentType: string, t: ResourceType): PatchKind {
  const kind = TYPES[contentType];
  const accepted = t.builtin
    ? 'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml'
    : 'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';
  if (kind === undefined || (kind === 'strategic' && !t.builtin)) {
    throw errors.unsupportedMediaType(
      `the body of the request was in an unknown format - accepted media types include: ${accepted}`,
    );
  }
  return kind;
}

/**
 * Applies a patch to the current object. Server-side apply is approximated as a JSON merge patch of the
 * applied configuration (no managedFields, no conflict detection); documented in the README.
 */
export function applyPatch(kind: PatchKind, current: JsonObject, patch: unknown): Json {
  switch (kind) {
    case 'json':
      return applyJsonPatch(current, patch);
    case 'merge':
    case 'apply':
      return applyMergePatch(current, (patch ?? null) as Json);
    case 'strategic':
      return applyStrategicMergePatch(current, (patch ?? null) as Json);
  }
}

export function requirePatchBody(patch: unknown): void {
  if (patch === undefined) throw new ApiError(400, 'BadRequest', 'the patch body is empty');
}
