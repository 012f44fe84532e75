import type { SimHostSpec } from './world-hosts.js';

/**
 * The demo's hosts: the first is listed by IPv4, the second by a DNS name, the third has PowerShell as
 * its OpenSSH default shell; further hosts alternate.
 */
export function demoHosts(n: number): SimHostSpec[] {
  return Array.from({ length: n }, (_, i): SimHostSpec => {
    const hostname = `WIN-BYOH-${String(i + 1).padStart(2, '0')}`;
    if (i % 3 === 1) return { hostname, dnsName: `${hostname.toLowerCase()}.sim.internal` };
    if (i % 3 === 2) return { hostname, defaultShell: 'powershell' };
    return { hostname };
  });
}
