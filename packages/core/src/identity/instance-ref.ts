import type { WindowsInstance } from '../desired/windows-instances.js';
import type { InstanceRef } from './registrations.js';

/**
 * What the operator knows of an instance from `windows-instances`: its key, its IPv4, and its DNS name
 * when it is listed by one. The DNS name is lower-cased (DNS is case-insensitive; operator-side data, so
 * this is part of the one documented normalisation), and serving-certificate SANs must equal it exactly.
 */
export function instanceRef(instance: WindowsInstance): InstanceRef {
  const dns = instance.address === instance.ipv4Address ? undefined : instance.address.toLowerCase();
  return {
    address: instance.address,
    ipv4: instance.ipv4Address,
    ...(dns === undefined ? {} : { dnsName: dns }),
  };
}
