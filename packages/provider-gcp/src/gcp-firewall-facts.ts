import type { protos } from '@google-cloud/compute';
import type { CloudContext, CloudInstance, FirewallFacts, PortReach } from '@wmco/core/provider';
import { gcpClientsFor } from './gcp-cloud-access.js';
import { gcpCall } from './gcp-errors.js';
import { getInstance } from './gcp-instance-identity.js';

type Firewall = protos.google.cloud.compute.v1.IFirewall;

function portIn(spec: string, port: number): boolean {
  const [from = '', to = from] = spec.split('-');
  return Number(from) <= port && port <= Number(to);
}

function allows(rule: Firewall, protocol: string, port: number): boolean {
  return (rule.allowed ?? []).some(
    (a) =>
      (a.IPProtocol === protocol || a.IPProtocol === 'all') &&
      (!a.ports || a.ports.length === 0 || a.ports.some((p) => portIn(p, port))),
  );
}

/** The network tags OpenShift gives its GCP nodes: `<infraID>-worker`, `<infraID>-master` (or `-control-plane`). */
function clusterNodeTags(infra: string): Set<string> {
  return new Set([`${infra}-worker`, `${infra}-master`, `${infra}-control-plane`]);
}

function source(rule: Firewall, nodeTags: ReadonlySet<string>): string | undefined {
  const tag = (rule.sourceTags ?? []).find((t) => nodeTags.has(t));
  if (tag) return `from nodes tagged ${tag}`;
  const range = rule.sourceRanges?.[0];
  return range ? `from ${range}` : undefined;
}

/**
 * Reads the VPC firewall rules that target the instance (by its network tags, or every instance) and
 * tells whether one admits the cluster's nodes (by their network tags, or a source range) on each port.
 */
export class GcpFirewallFacts implements FirewallFacts {
  constructor(private readonly ctx: CloudContext | undefined) {}

  async inspect(instance: CloudInstance, vxlanPort: number): Promise<readonly PortReach[]> {
    const c = await gcpClientsFor(this.ctx);
    try {
      const targetTags = new Set((await getInstance(c, instance)).tags?.items ?? []);
      const rules: Firewall[] = [];
      await gcpCall('firewalls.list', async () => {
        for await (const r of c.firewalls.listAsync({ project: c.project }, c.call)) rules.push(r);
      });
      const applicable = rules.filter(
        (r) =>
          (r.direction ?? 'INGRESS') === 'INGRESS' &&
          !r.disabled &&
          ((r.targetTags ?? []).length === 0 || (r.targetTags ?? []).some((t) => targetTags.has(t))),
      );
      const nodeTags = clusterNodeTags(this.ctx?.infrastructureName ?? '');
      const wanted = [
        { port: 10250, protocol: 'tcp' as const, purpose: 'kubelet' },
        { port: 9182, protocol: 'tcp' as const, purpose: 'windows_exporter' },
        { port: vxlanPort, protocol: 'udp' as const, purpose: 'vxlan' },
      ];
      return wanted.map((w) => {
        const hit = applicable
          .filter((r) => allows(r, w.protocol, w.port))
          .map((r) => ({ name: r.name ?? '', from: source(r, nodeTags) }))
          .find((h) => h.from !== undefined);
        const detail = hit
          ? `firewall rule ${hit.name} ${hit.from ?? ''}`
          : "no ingress firewall rule admits the cluster's nodes";
        return { ...w, allowed: hit !== undefined, detail };
      });
    } finally {
      await c.close();
    }
  }
}
