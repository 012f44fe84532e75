import type { FirewallPort, HostState } from '@wmco/core';
import type { WindowsModel } from './windows-model.js';

/** Get-WmcoFirewallPorts: the inbound rules (every model rule is enabled and Allow) covering each port. */
export function firewallPorts(
  m: WindowsModel,
  ports: readonly FirewallPort[],
): NonNullable<HostState['firewallPorts']> {
  return ports.map((p) => ({
    ...p,
    rules: [
      ...new Set(
        m.firewallRules
          .filter(
            (r) => r.direction === 'Inbound' && r.protocol === p.protocol && r.localPort === p.localPort,
          )
          .map((r) => r.name),
      ),
    ].sort(),
  }));
}
