import type { ImageMirrorEntry } from './mirror-sets.js';
import { extractRegistryHostname } from './mirror-sets.js';

/** An IDMS/ITMS entry the operator skipped, and why. */
export interface MirrorProblem {
  /** `ImageDigestMirrorSet` or `ImageTagMirrorSet`. */
  readonly kind: string;
  /** The object's name. */
  readonly name: string;
  readonly message: string;
}

// registry host (DNS name or IPv4) with an optional port
const HOST =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::\d{1,5})?$/;
// what may follow the host: repository path characters only (these strings end up in hosts.toml)
const PATH = /^(?:\/[A-Za-z0-9._\-/]*)?$/;
const POLICIES = new Set(['', 'AllowContactingSource', 'NeverContactSource']);

function referenceProblem(ref: unknown, what: string): string | undefined {
  if (typeof ref !== 'string' || ref === '') return `${what} is not a non-empty string`;
  const shown = JSON.stringify(ref); // quoted and escaped: no newlines or quotes from the object in messages
  const bare = ref.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\//, '');
  const host = extractRegistryHostname(ref);
  if (host.startsWith('*'))
    return `${what} ${shown} is a wildcard: containerd's registry hosts have no wildcard form on Windows`;
  if (!HOST.test(host)) return `${what} ${shown} does not start with a registry host[:port]`;
  if (!PATH.test(bare.slice(bare.indexOf(host) + host.length)))
    return `${what} ${shown} has characters that are not allowed in an image repository`;
  return undefined;
}

function mirrorsProblem(mirrors: unknown): string | undefined {
  if (!Array.isArray(mirrors)) return 'mirrors is not a list';
  for (const m of mirrors as unknown[]) {
    const p = referenceProblem(m, 'mirror');
    if (p !== undefined) return p;
  }
  return undefined;
}

/** Why one entry cannot be used, or undefined. */
export function mirrorEntryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return 'the entry is not an object';
  const e = entry as Record<string, unknown>;
  const source = referenceProblem(e['source'], 'source');
  if (source !== undefined) return source;
  const mirrors = mirrorsProblem(e['mirrors'] ?? []);
  if (mirrors !== undefined) return mirrors;
  const policy = e['mirrorSourcePolicy'] ?? '';
  if (typeof policy !== 'string' || !POLICIES.has(policy))
    return `unknown mirrorSourcePolicy ${JSON.stringify(policy)}`;
  return undefined;
}

/**
 * Splits the entries of one IDMS/ITMS object into the usable ones and a problem per skipped entry, so one
 * bad entry never blocks the others (nor every join, as a thrown error would).
 */
export function checkMirrorEntries(
  entries: readonly unknown[],
  object: { kind: string; name: string },
): { valid: ImageMirrorEntry[]; problems: MirrorProblem[] } {
  const valid: ImageMirrorEntry[] = [];
  const problems: MirrorProblem[] = [];
  entries.forEach((entry, i) => {
    const why = mirrorEntryProblem(entry);
    if (why === undefined) valid.push(entry as ImageMirrorEntry);
    else problems.push({ ...object, message: `${object.kind} ${object.name} entry ${i}: ${why}; skipped` });
  });
  return { valid, problems };
}
