import ipaddr from 'ipaddr.js';

/**
 * The cluster DNS address: the 10th address of the service network (reference §1.13, upstream GetDNS),
 * e.g. `172.30.0.0/16` → `172.30.0.10`. IPv4 only. A missing prefix, a malformed CIDR, or a network too
 * small to hold a 10th address is an error naming the value.
 */
export function clusterDnsAddress(serviceCidr: string): string {
  let network: [ipaddr.IPv4 | ipaddr.IPv6, number];
  try {
    network = ipaddr.parseCIDR(serviceCidr);
  } catch {
    throw new Error(`service network "${serviceCidr}" is not a CIDR (e.g. 172.30.0.0/16)`);
  }
  const [address, prefix] = network;
  if (!(address instanceof ipaddr.IPv4)) {
    throw new Error(`service network "${serviceCidr}" is not IPv4; only IPv4 service networks are supported`);
  }
  const start = ipaddr.IPv4.networkAddressFromCIDR(serviceCidr).toByteArray();
  const base = start.reduce((n, b) => n * 256 + b, 0);
  const size = 2 ** (32 - prefix);
  if (size <= 10) throw new Error(`service network "${serviceCidr}" is too small to hold a 10th address`);
  const dns = base + 10;
  return [dns >>> 24, (dns >>> 16) & 255, (dns >>> 8) & 255, dns & 255].join('.');
}
