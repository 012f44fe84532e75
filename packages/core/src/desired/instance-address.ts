import ipaddr from 'ipaddr.js';

/**
 * What a `windows-instances` key may point at. Loopback is refused unless `allowLoopback` (the simulated
 * world's hosts live on 127.0.0.0/8; the operator option that sets it is off by default). `reserved` maps
 * addresses the cluster itself uses (its API server, its other nodes) to a description for the message.
 */
export interface InstanceAddressPolicy {
  readonly allowLoopback: boolean;
  readonly reserved: ReadonlyMap<string, string>;
}

export const STRICT_ADDRESS_POLICY: InstanceAddressPolicy = { allowLoopback: false, reserved: new Map() };

// The last label of a DNS name is never all digits (RFC 3696 §2), nor a hex number: such "names" are
// numeric addresses in another spelling that getaddrinfo/inet_aton would turn into an IP
// (`127.1`, `2130706433`, `0x7f.1`).
const NUMERIC_LABEL = /^(?:\d+|0x[0-9a-f]*)$/i;

/**
 * Refuses an address key written in any numeric form other than canonical dotted-quad decimal:
 * `010.0.0.1` (octal-looking), `2130706433` (one number), `0x7f.1` (hex), `127.1` (short forms), and
 * `1.2.3.4.5`. Such keys parse differently in different resolvers and would make one host appear under
 * several keys. Returns undefined for a canonical IPv4 address or a name that is not numeric.
 */
export function nonCanonicalNumericProblem(key: string): string | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(key)) return undefined;
  const labels = key.replace(/\.$/, '').split('.');
  const last = labels[labels.length - 1] ?? '';
  if (!ipaddr.IPv4.isValid(key) && !NUMERIC_LABEL.test(last)) return undefined;
  return (
    'is a numeric address in a non-canonical form; write IPv4 addresses as four decimal numbers ' +
    'without leading zeros (a.b.c.d), or use a DNS name'
  );
}

const REFUSED_RANGES: Readonly<Record<string, string>> = {
  unspecified: 'an unspecified address (0.0.0.0/8)',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address (224.0.0.0/4)',
  linkLocal: 'a link-local address (169.254.0.0/16)',
  loopback: 'a loopback address (127.0.0.0/8)',
};

/**
 * Why the operator must not connect to `ipv4` for an instance, or undefined when it may. `via` names the
 * DNS key the address was resolved from, for the message.
 */
export function instanceAddressProblem(
  ipv4: string,
  policy: InstanceAddressPolicy,
  via?: string,
): string | undefined {
  const where = via === undefined ? ipv4 : `${via} resolves to ${ipv4}, which`;
  const reserved = policy.reserved.get(ipv4);
  if (reserved !== undefined) return `${where} is ${reserved}, not a Windows host`;
  const range = ipaddr.IPv4.parse(ipv4).range();
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  const refused = REFUSED_RANGES[range];
  return refused === undefined ? undefined : `${where} is ${refused}; it cannot be a Windows instance`;
}
