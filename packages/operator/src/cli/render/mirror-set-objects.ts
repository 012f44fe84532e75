import type { ImageMirrorEntry } from '@wmco/core/internal';
import { isRecord } from './read-input.js';

export interface MirrorEntries {
  readonly digest: ImageMirrorEntry[];
  readonly tag: ImageMirrorEntry[];
}

function entries(list: unknown, where: string): ImageMirrorEntry[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new Error(`${where} must be a list`);
  return list.map((e: unknown, i): ImageMirrorEntry => {
    const bad = new Error(
      `${where}[${i}] must have a string "source", a list of string "mirrors" and an optional string "mirrorSourcePolicy"`,
    );
    if (!isRecord(e) || typeof e.source !== 'string') throw bad;
    const mirrors: unknown = e.mirrors ?? [];
    const policy: unknown = e.mirrorSourcePolicy;
    if (!Array.isArray(mirrors) || !mirrors.every((m) => typeof m === 'string')) throw bad;
    if (policy !== undefined && typeof policy !== 'string') throw bad;
    return {
      source: e.source,
      mirrors,
      ...(policy !== undefined ? { mirrorSourcePolicy: policy } : {}),
    };
  });
}

/**
 * Collects the entries of ImageDigestMirrorSet and ImageTagMirrorSet objects (a `List` is unpacked).
 * Anything else is an error naming where it was found.
 */
export function collectMirrorEntries(objects: readonly unknown[], where: string, into: MirrorEntries): void {
  objects.forEach((obj, i) => {
    const at = `${where} document ${i + 1}`;
    if (!isRecord(obj)) throw new Error(`${at} is not an object`);
    const spec = isRecord(obj.spec) ? obj.spec : {};
    if (obj.kind === 'List') collectMirrorEntries(Array.isArray(obj.items) ? obj.items : [], at, into);
    else if (obj.kind === 'ImageDigestMirrorSet')
      into.digest.push(...entries(spec.imageDigestMirrors, `${at} spec.imageDigestMirrors`));
    else if (obj.kind === 'ImageTagMirrorSet')
      into.tag.push(...entries(spec.imageTagMirrors, `${at} spec.imageTagMirrors`));
    else
      throw new Error(
        `${at} has kind ${JSON.stringify(obj.kind)}; expected ImageDigestMirrorSet or ImageTagMirrorSet`,
      );
  });
}
