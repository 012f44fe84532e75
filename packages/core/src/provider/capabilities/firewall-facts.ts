import { token } from '../token.js';
import type { CloudInstance } from './instance-identity.js';

/** Whether the cloud's firewall lets the cluster's nodes reach one port of the instance. */
export interface PortReach {
  readonly port: number;
  readonly protocol: 'tcp' | 'udp';
  /** What the port is for: `kubelet`, `windows_exporter`, `vxlan`. */
  readonly purpose: string;
  readonly allowed: boolean;
  /** The rule or group that allows it, or why nothing does. */
  readonly detail: string;
}

/**
 * Reads the cloud's firewall (AWS security groups, GCP firewall rules) to tell whether the cluster's
 * nodes reach the ports a Windows node needs. Rejects like `InstanceIdentity.identify`. Since contract v1.
 */
export interface FirewallFacts {
  inspect(instance: CloudInstance, vxlanPort: number): Promise<readonly PortReach[]>;
}
export const FirewallFacts = token<FirewallFacts>('platform.firewall-facts');
