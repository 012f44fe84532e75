import type { FirewallPort, HostState } from '../host/protocol/index.js';
import { NODE_FIREWALL_RULES } from '../desired/host-spec-builder.js';
import type { PlatformPrerequisites } from '../provider/index.js';
import { fail, pass, warn, type Finding } from './finding.js';
import { DEFAULT_VXLAN_PORT, type HostCheckOptions } from './preflight-options.js';

/** TCP 10250 (kubelet) and 9182 (windows_exporter): the join adds these rules itself. */
const JOIN_OPENS: readonly FirewallPort[] = NODE_FIREWALL_RULES.map((r) => ({
  protocol: r.protocol,
  localPort: r.localPort,
}));

/** The ports `observe` is asked about: the ones the join opens, then the hybrid overlay's VXLAN port. */
export function firewallPortsToCheck(vxlanPort: number): FirewallPort[] {
  return [...JOIN_OPENS, { protocol: 'UDP', localPort: vxlanPort }];
}

function label(p: FirewallPort): string {
  const what = p.localPort === 10250 ? 'kubelet' : p.localPort === 9182 ? 'windows_exporter' : 'VXLAN';
  return `${p.protocol} ${p.localPort} (${what})`;
}

function newRule(p: FirewallPort, name: string): string {
  return `New-NetFirewallRule -DisplayName '${name}' -Direction Inbound -Protocol ${p.protocol} -LocalPort ${p.localPort} -Action Allow`;
}

/**
 * Inbound rules for the node's ports. The VXLAN port is the admin's job (the hybrid overlay needs it open
 * on every node; the join does not open it): missing is a failure. Kubelet's and windows_exporter's ports
 * are opened by the join (as upstream's user-data does for Machines): missing is a warning.
 */
export function checkFirewall(
  state: HostState,
  prereqs: PlatformPrerequisites,
  options: HostCheckOptions,
): Finding {
  if (prereqs.customVxlanPortRequired && options.vxlanPort === DEFAULT_VXLAN_PORT)
    return fail(
      'firewall',
      `platform ${options.platform} needs a custom hybrid overlay VXLAN port, but ${DEFAULT_VXLAN_PORT} was checked`,
      'pass --vxlan-port with the hybridOverlayVXLANPort of network.operator.openshift.io/cluster',
    );
  const reported = state.firewallPorts;
  if (!reported)
    return fail('firewall', 'the host did not report its firewall rules', 'update the wmco host module');
  const wanted = firewallPortsToCheck(options.vxlanPort);
  const open = (p: FirewallPort): boolean =>
    reported.some((r) => r.protocol === p.protocol && r.localPort === p.localPort && r.rules.length > 0);
  const vxlan = wanted[wanted.length - 1] as FirewallPort;
  const missingJoin = JOIN_OPENS.filter((p) => !open(p));
  if (!open(vxlan))
    return fail(
      'firewall',
      `no enabled inbound rule allows ${label(vxlan)}${missingJoin.length ? `; nor ${missingJoin.map(label).join(', ')} (the join adds those)` : ''}`,
      newRule(vxlan, 'HybridOverlayVXLAN'),
    );
  if (missingJoin.length > 0)
    return warn(
      'firewall',
      `no enabled inbound rule allows ${missingJoin.map(label).join(', ')}: the join adds ${missingJoin
        .map((p) => NODE_FIREWALL_RULES.find((r) => r.localPort === p.localPort)?.name ?? '')
        .join(' and ')}`,
      'nothing, unless group policy or another firewall blocks local rules; then allow the port(s) there',
    );
  return pass('firewall', `inbound rules allow ${wanted.map(label).join(', ')}`);
}
