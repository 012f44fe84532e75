import ipaddr from 'ipaddr.js';
import {
  instanceAddressProblem,
  nonCanonicalNumericProblem,
  type InstanceAddressPolicy,
} from './instance-address.js';
import { findNodeByAddress, type NodeRef } from './node-ref.js';

/** Resolves a DNS name to its IPv4 addresses (may be empty); rejects when the name does not resolve. */
export type Ipv4Resolver = (name: string) => Promise<readonly string[]>;

/** One BYOH host from the `windows-instances` ConfigMap. */
export interface WindowsInstance {
  /** The ConfigMap key as written: an IPv4 address or a DNS name. */
  readonly address: string;
  /** The key itself when it is an IPv4 address, else the first IPv4 address it resolves to. */
  readonly ipv4Address: string;
  readonly username: string;
  /** The Node already registered for this host, matched by address. */
  readonly node?: NodeRef;
}

/** The outcome for one key: the instance, or why this key (and only this key) was rejected. */
export type WindowsInstanceResult =
  | { readonly key: string; readonly ok: true; readonly instance: WindowsInstance }
  | { readonly key: string; readonly ok: false; readonly error: string };

// A DNS name (RFC 1123 labels). Nothing else can reach a host, so nothing else is accepted: this also
// keeps quotes, whitespace and shell or PowerShell metacharacters out of every command built from it.
const DNS_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;
// A Windows account name: letters, digits, '.', '_' and '-' (no spaces, quotes, '$', '`', ';', '&', '|' ...).
const USERNAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;
const USERNAME_KEY = 'username';

/**
 * The username from a `windows-instances` value `username=<user>`. The value is split on the first `=`
 * (so `username=a=b` names `a=b`, which the strict name rule then rejects). Upstream panics on a bare
 * `username` (QUIRK 14); here it is an error like any other.
 */
export function parseInstanceUsername(value: string): string {
  const eq = value.indexOf('=');
  if (eq < 0) throw new Error(`value must be "${USERNAME_KEY}=<user>", got "${value}" (no "=")`);
  const key = value.slice(0, eq);
  const user = value.slice(eq + 1);
  if (key !== USERNAME_KEY) throw new Error(`value must start with "${USERNAME_KEY}=", got "${key}="`);
  if (!USERNAME.test(user)) {
    throw new Error(
      `username "${user}" is not a valid Windows account name (letters, digits, ".", "_" and "-" only)`,
    );
  }
  return user;
}

async function ipv4For(address: string, resolve: Ipv4Resolver): Promise<string> {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return address;
  if (ipaddr.IPv6.isValid(address))
    throw new Error('IPv6 addresses are not supported; use IPv4 or a DNS name');
  if (!DNS_NAME.test(address)) throw new Error('key is neither an IPv4 address nor a valid DNS name');
  const numeric = nonCanonicalNumericProblem(address);
  if (numeric !== undefined) throw new Error(`key ${numeric}`);
  let found: readonly string[];
  try {
    found = await resolve(address);
  } catch (err) {
    throw new Error(`cannot resolve: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const first = found.find((a) => ipaddr.IPv4.isValidFourPartDecimal(a));
  if (!first) throw new Error('the name resolves to no IPv4 address');
  return first;
}

interface ParseContext {
  readonly nodes: readonly NodeRef[];
  readonly resolve: Ipv4Resolver;
  readonly policy: InstanceAddressPolicy | undefined;
}

async function parseEntry(key: string, value: string, c: ParseContext): Promise<WindowsInstanceResult> {
  const { nodes, resolve, policy } = c;
  try {
    const username = parseInstanceUsername(value);
    const ipv4Address = await ipv4For(key, resolve);
    const refused =
      policy && instanceAddressProblem(ipv4Address, policy, key === ipv4Address ? undefined : key);
    if (refused !== undefined) throw new Error(refused);
    const node = findNodeByAddress(nodes, [ipv4Address, key]);
    return { key, ok: true, instance: { address: key, ipv4Address, username, ...(node ? { node } : {}) } };
  } catch (err) {
    return { key, ok: false, error: `windows-instances entry "${key}": ${(err as Error).message}` };
  }
}

/**
 * Parses the `windows-instances` ConfigMap data. Unlike upstream, which fails the whole map on the first
 * bad entry (QUIRK 18), every key gets its own result, so one typo does not block the other hosts. Results
 * are sorted by key, so the order is stable. `nodes` must be given (upstream: "nodes cannot be nil").
 * Numeric keys must be canonical dotted quads (`010.0.0.1`, `2130706433`, `0x7f.1`, `127.1` are refused).
 * With a `policy`, an address it refuses (loopback, link-local, the cluster's own, ...) is an error too.
 */
export async function parseWindowsInstances(
  data: Readonly<Record<string, string>>,
  nodes: readonly NodeRef[] | undefined,
  resolve: Ipv4Resolver,
  policy?: InstanceAddressPolicy,
): Promise<WindowsInstanceResult[]> {
  if (!nodes) throw new Error('nodes cannot be undefined');
  const keys = Object.keys(data).sort();
  return Promise.all(keys.map((k) => parseEntry(k, data[k] ?? '', { nodes, resolve, policy })));
}

/** The username configured for `node`'s host, or a clear error when no valid entry matches the node. */
export async function nodeUsername(
  data: Readonly<Record<string, string>>,
  node: NodeRef | undefined,
  resolve: Ipv4Resolver,
): Promise<string> {
  if (!node) throw new Error('node cannot be undefined');
  const results = await parseWindowsInstances(data, [node], resolve);
  const match = results.find((r) => r.ok && r.instance.node?.name === node.name);
  if (!match?.ok) throw new Error(`no valid windows-instances entry for node ${node.name}`);
  return match.instance.username;
}
