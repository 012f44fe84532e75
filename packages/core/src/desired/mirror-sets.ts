/** `mirrorSourcePolicy` of IDMS/ITMS entries. */
export type MirrorSourcePolicy = 'AllowContactingSource' | 'NeverContactSource';

/** One mirror of a source: `host[:port][/path]`, and whether tags may be resolved through it (ITMS). */
export interface Mirror {
  readonly host: string;
  readonly resolveTags: boolean;
}

export interface MirrorSet {
  readonly source: string;
  readonly mirrors: readonly Mirror[];
  readonly mirrorSourcePolicy: MirrorSourcePolicy;
}

/** One `spec.imageDigestMirrors[]` / `spec.imageTagMirrors[]` entry. */
export interface ImageMirrorEntry {
  readonly source: string;
  readonly mirrors?: readonly string[] | undefined;
  readonly mirrorSourcePolicy?: string | undefined;
}

/**
 * The registry host (with port) of an image reference: the URL host when it has a scheme
 * (`docker://mcr.microsoft.com/x` → `mcr.microsoft.com`), else the text before the first `/`.
 */
export function extractRegistryHostname(ref: string): string {
  const withScheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]+)/.exec(ref);
  if (withScheme?.[1]) return withScheme[1].replace(/^[^@]*@/, '');
  return ref.split('/')[0] ?? '';
}

/** The path after the registry host: `registry.local/org/sub_org` → `org/sub_org`; none → `""`. */
export function extractRegistryOrgPath(ref: string): string {
  const slash = ref.indexOf('/');
  return slash < 0 ? '' : ref.slice(slash + 1);
}

/**
 * The registry-level mirror for a repository-level pair: the mirror with the longest `/`-separated suffix
 * it shares with the source removed (`mcr.microsoft.com/oss/pause` + `quay.io/u/oss/pause` → `quay.io/u`).
 * Identical references leave `""`.
 */
export function extractMirrorURL(source: string, mirror: string): string {
  const s = source.split('/');
  const m = mirror.split('/');
  let i = s.length - 1;
  let j = m.length - 1;
  while (i >= 0 && j >= 0 && s[i] === m[j]) {
    i--;
    j--;
  }
  return m.slice(0, j + 1).join('/');
}

/** Union by host; when both have a host, `resolveTags: true` wins. Sorted by host. */
export function mergeMirrors(a: readonly Mirror[], b: readonly Mirror[]): Mirror[] {
  const byHost = new Map<string, Mirror>();
  for (const m of [...a, ...b]) {
    const seen = byHost.get(m.host);
    byHost.set(m.host, { host: m.host, resolveTags: m.resolveTags || (seen?.resolveTags ?? false) });
  }
  return [...byHost.values()].sort((x, y) => (x.host < y.host ? -1 : x.host > y.host ? 1 : 0));
}

/**
 * Merges sets with the same source and sorts by source. `NeverContactSource` wins over
 * `AllowContactingSource`. (Upstream, QUIRK 7, never replaces an unset policy, so an unset entry could
 * undo another entry's NeverContactSource; here an unset policy is the API default, AllowContactingSource,
 * before merging, so NeverContactSource always wins.)
 */
export function mergeMirrorSets(sets: readonly MirrorSet[]): MirrorSet[] {
  const bySource = new Map<string, MirrorSet>();
  for (const set of sets) {
    const seen = bySource.get(set.source);
    bySource.set(
      set.source,
      seen
        ? {
            source: set.source,
            mirrors: mergeMirrors(seen.mirrors, set.mirrors),
            mirrorSourcePolicy:
              seen.mirrorSourcePolicy === 'NeverContactSource'
                ? 'NeverContactSource'
                : set.mirrorSourcePolicy,
          }
        : { ...set, mirrors: mergeMirrors(set.mirrors, []) },
    );
  }
  return [...bySource.values()].sort((x, y) => (x.source < y.source ? -1 : x.source > y.source ? 1 : 0));
}

function policyOf(entry: ImageMirrorEntry, where: string): MirrorSourcePolicy {
  const p = entry.mirrorSourcePolicy ?? '';
  if (p === '' || p === 'AllowContactingSource') return 'AllowContactingSource';
  if (p === 'NeverContactSource') return p;
  throw new Error(`${where} source ${entry.source}: unknown mirrorSourcePolicy "${p}"`);
}

function toSet(entry: ImageMirrorEntry, resolveTags: boolean, where: string): MirrorSet {
  const mirrors = (entry.mirrors ?? []).map((m) => ({
    host: extractMirrorURL(entry.source, m) || extractRegistryHostname(m),
    resolveTags,
  }));
  return {
    source: extractRegistryHostname(entry.source),
    mirrors,
    mirrorSourcePolicy: policyOf(entry, where),
  };
}

/**
 * Registry-level mirror sets from every ImageDigestMirrorSet entry (digest pulls only) and every
 * ImageTagMirrorSet entry (tags too), merged per source registry (reference §1.15).
 */
export function mergedMirrorSets(
  digestMirrors: readonly ImageMirrorEntry[],
  tagMirrors: readonly ImageMirrorEntry[],
): MirrorSet[] {
  return mergeMirrorSets([
    ...digestMirrors.map((e) => toSet(e, false, 'ImageDigestMirrorSet')),
    ...tagMirrors.map((e) => toSet(e, true, 'ImageTagMirrorSet')),
  ]);
}
