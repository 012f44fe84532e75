import type { KubeConfig } from '@kubernetes/client-node';
import { clearPins, foreignPinsMessage, stalePins } from './attach-pins.js';
import { AttachPrecheckError } from './attach-seeding.js';
import { deleteNodes, foreignNodesMessage, staleNodes } from './attach-stale-nodes.js';
import type { SimHostSpec } from './world-hosts.js';

/** The Node name a simulated host's kubelet registers: its computer name, trimmed and lower-cased. */
export const nodeNameOf = (h: SimHostSpec): string => h.hostname.trim().toLowerCase();

/** The windows-instances keys of hosts listed by DNS name: known before the hosts (and their addresses) exist. */
function namedKeys(hosts: readonly SimHostSpec[]): string[] {
  return hosts.flatMap((h) => (h.listAs !== 'ipv4' && h.dnsName !== undefined ? [h.dnsName] : []));
}

/**
 * Before a run writes anything: refuses host-key pins under the run's host names that are not leftovers
 * of earlier simulated hosts (a real host's pin), and warns of Nodes under those names that are not
 * (a real Node: the operator refuses the host reporting that name, which a hostile hosts file may intend).
 */
export async function refuseForeignLeftovers(
  kc: KubeConfig,
  hosts: readonly SimHostSpec[],
  out: (line: string) => void,
): Promise<void> {
  const pins = await stalePins(kc, namedKeys(hosts));
  if (pins.foreign.length > 0) throw new AttachPrecheckError(foreignPinsMessage(pins.foreign));
  const nodes = await staleNodes(kc, hosts.map(nodeNameOf));
  if (nodes.foreign.length > 0) out(foreignNodesMessage(nodes.foreign));
}

/**
 * Once the hosts' keys are known (their addresses included): clears the host-key pins and deletes the
 * Nodes earlier attach-mode runs left under the same names (refusing pins that are not theirs). Their hosts are gone; the new hosts have new
 * keys, so the operator would refuse them ("host key changed", "name taken by an existing Node").
 */
export async function clearOwnLeftovers(
  kc: KubeConfig,
  keys: readonly string[],
  nodeNames: readonly string[],
  out: (line: string) => void,
): Promise<void> {
  const pins = await stalePins(kc, keys);
  if (pins.foreign.length > 0) throw new AttachPrecheckError(foreignPinsMessage(pins.foreign));
  const nodes = await staleNodes(kc, nodeNames);
  if (pins.own.length > 0) {
    await clearPins(kc, pins.own);
    out(`host-key pins: cleared those earlier attach-mode runs left for ${pins.own.join(', ')}`);
  }
  if (nodes.own.length > 0) {
    await deleteNodes(kc, nodes.own);
    out(
      `Nodes: deleted those earlier simulated hosts left (NotReady, loopback addresses): ${nodes.own.join(', ')}`,
    );
  }
}
