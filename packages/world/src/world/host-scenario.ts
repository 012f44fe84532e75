import { HybridOverlayAnnotator } from '@wmco/sim';
import type { SimWorld } from './sim-world.js';

/** A CSR attack the world performs with the credentials a joining host holds (see csr-attacks.ts). */
export const CSR_ATTACKS = ['secondClient', 'wrongRequester', 'servingExtraSans', 'afterRemoval'] as const;
export type CsrAttack = (typeof CSR_ATTACKS)[number];

/** A host fault the simulated host plays once (see HostFaults in @wmco/sim). */
export type HostFault = 'endlessOutput';

/** What a staged (`wmco sim --hosts-file`) host does besides joining. */
export interface HostScenario {
  /** Literal windows-instances keys to list the host under instead of its IPv4 or DNS name. */
  readonly keys?: readonly string[];
  /** List the host under each of these (two entries for one host when both are given). */
  readonly listAs?: readonly ('ipv4' | 'dns')[];
  readonly faults?: readonly HostFault[];
  /** What the simulated OVN annotator writes as this host's Node subnet instead of the allocated one. */
  readonly nodeSubnet?: string;
  readonly hostileCsrs?: readonly CsrAttack[];
}

/** The windows-instances keys host `i` is listed under. */
export function instanceKeys(world: SimWorld, i: number): string[] {
  const h = world.hosts.hosts[i];
  if (!h) throw new Error(`no host ${i}`);
  const sc = h.spec.scenario;
  if (sc?.keys) return [...sc.keys];
  if (!sc?.listAs) return [world.hosts.key(i)];
  return sc.listAs.map((as) => (as === 'dns' ? (h.spec.dnsName ?? h.address) : h.address));
}

/** The Node name the host's kubelet registers (it trims and lower-cases the computer name). */
export function kubeletNodeName(hostname: string): string {
  return hostname.trim().toLowerCase();
}

/** Arms each host's faults and makes the OVN annotator write the hostile subnets. */
export function installScenarios(world: SimWorld): void {
  const subnets = new Map<string, string>();
  for (const h of world.hosts.hosts) {
    const sc = h.spec.scenario;
    if (sc?.faults?.includes('endlessOutput')) h.sim.faults.endlessOutput = true;
    if (sc?.nodeSubnet !== undefined) subnets.set(kubeletNodeName(h.spec.hostname), sc.nodeSubnet);
  }
  if (subnets.size === 0) return;
  const annotator = world.cluster.controllers.find((c) => c instanceof HybridOverlayAnnotator);
  if (!(annotator instanceof HybridOverlayAnnotator)) throw new Error('no hybrid-overlay annotator');
  annotator.hostileSubnet = (node) => subnets.get(node);
}
