import { parseWindowsInstances, type Ipv4Resolver } from '../desired/windows-instances.js';
import { fail, pass, type Finding } from './finding.js';

/**
 * The address as the windows-instances ConfigMap would take it (same rules: IPv4, or a DNS name resolving
 * to IPv4; IPv6 refused), and the IPv4 address to connect to when it passes.
 */
export async function checkAddress(
  address: string,
  username: string,
  resolve: Ipv4Resolver,
): Promise<{ finding: Finding; ipv4?: string }> {
  const [entry] = await parseWindowsInstances({ [address]: `username=${username}` }, [], resolve);
  if (!entry?.ok)
    return {
      finding: fail(
        'address',
        entry?.error ?? 'no address',
        'use an IPv4 address or a DNS name that resolves to IPv4 from where the operator runs',
      ),
    };
  const ipv4 = entry.instance.ipv4Address;
  return { finding: pass('address', ipv4 === address ? ipv4 : `${address} resolves to ${ipv4}`), ipv4 };
}
