import {
  extractRegistryHostname,
  extractRegistryOrgPath,
  type Mirror,
  type MirrorSet,
} from './mirror-sets.js';
import type { RegistryCredentials } from './pull-secret.js';

/** One generated containerd registry host file. */
export interface HostsTomlFile {
  /** The source registry, `host[:port]`. */
  readonly source: string;
  /** Directory under `C:\k\containerd\registries` holding `hosts.toml` (see `registryHostDirectory`). */
  readonly directory: string;
  readonly content: string;
}

const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?$/;
const PATH = /^[A-Za-z0-9._/-]*$/;

/**
 * Directory containerd looks up for a registry host. Deliberate fix over upstream (which uses the source
 * as is): containerd on Windows strips `:` from its candidates (`host_port_`, `hostport`, `_default`), so
 * `host:port` never matches there; `host_port_` is the form both Windows and Linux containerd try first
 * (reference containerd-notes §4.6, checked on Linux 1.6.20 as F1).
 */
export function registryHostDirectory(source: string): string {
  const colon = source.lastIndexOf(':');
  return colon < 0 ? source : `${source.slice(0, colon)}_${source.slice(colon + 1)}_`;
}

function registryUrl(ref: string, what: string): string {
  const host = extractRegistryHostname(ref);
  const path = extractRegistryOrgPath(ref).replace(/\/+$/, '');
  if (!HOST.test(host) || !PATH.test(path) || path.split('/').includes('..')) {
    throw new Error(`${what} "${ref}" is not a registry host[:port][/path]`);
  }
  return `https://${host}/v2${path ? `/${path}` : ''}`;
}

// Values are JSON-quoted: for the characters allowed above, JSON and TOML basic strings agree.
const q = (s: string): string => JSON.stringify(s);

function headerLines(table: string, auth: string | undefined, indent: string): string[] {
  return auth === undefined
    ? []
    : [`${indent}[${table}]`, `${indent}  authorization = ${q(`Basic ${auth}`)}`];
}

function hostBlock(m: Mirror, creds: RegistryCredentials | undefined): string {
  const url = registryUrl(m.host, 'mirror');
  const table = `host.${q(url)}`;
  return [
    `[${table}]`,
    `  capabilities = ${m.resolveTags ? '["pull", "resolve"]' : '["pull"]'}`,
    '  override_path = true',
    ...headerLines(`${table}.header`, creds?.get(extractRegistryHostname(m.host)), '  '),
  ].join('\n');
}

/**
 * The `hosts.toml` of one source (reference §1.15), byte-identical to upstream's for every §4.2 vector:
 * `server` is the source (or, with NeverContactSource, the first mirror), then one `[host]` table per
 * mirror with its capabilities and, when the pull secret has credentials for the mirror's exact
 * `host[:port]`, an authorization header. No mirrors: an empty file (containerd then uses the source).
 *
 * Deliberate fix over upstream: when `server` is a mirror (NeverContactSource) with credentials, the
 * header is also written at top level. containerd sends a `[host]` table's header only to that host, and
 * tag pulls through digest-only mirrors go to `server`, which otherwise gets no credentials (401).
 */
export function hostsToml(set: MirrorSet, creds?: RegistryCredentials): string {
  if (set.mirrors.length === 0) return '';
  const never = set.mirrorSourcePolicy === 'NeverContactSource';
  const fallback = never ? (set.mirrors[0]?.host ?? set.source) : set.source;
  const head = [
    `server = ${q(registryUrl(fallback, never ? 'mirror' : 'source'))}`,
    '',
    'override_path = true',
  ];
  const serverAuth = never ? creds?.get(extractRegistryHostname(fallback)) : undefined;
  const blocks = [head.join('\n')];
  if (serverAuth !== undefined) blocks.push(headerLines('header', serverAuth, '').join('\n'));
  blocks.push(...set.mirrors.map((m) => hostBlock(m, creds)));
  return `${blocks.join('\n\n')}\n`;
}

/** One file per merged mirror set, in source order. */
export function hostsTomlFiles(sets: readonly MirrorSet[], creds?: RegistryCredentials): HostsTomlFile[] {
  return sets.map((set) => {
    const source = extractRegistryHostname(set.source);
    if (!HOST.test(source)) throw new Error(`source "${set.source}" is not a registry host[:port]`);
    return { source, directory: registryHostDirectory(source), content: hostsToml(set, creds) };
  });
}
