import ipaddr from 'ipaddr.js';
import semver from 'semver';
import type { ClusterNetworkFacts } from '../desired/cluster-facts.js';

/** The Kubernetes minor versions this release supports (upstream: v1.36 to v1.37). */
export const SUPPORTED_KUBERNETES = { min: '1.36.0', maxMinor: '1.37' } as const;

export interface ClusterProblem {
  /** True when upstream refuses to start (exit 1); false for what only degrades the operator. */
  readonly fatal: boolean;
  readonly message: string;
}

const CLASS_E = ipaddr.parseCIDR('240.0.0.0/4');

function overlapsClassE(cidr: string): boolean {
  const [addr, bits] = ipaddr.parseCIDR(cidr);
  if (addr.kind() !== 'ipv4') return false;
  const [e, eBits] = CLASS_E;
  return addr.match(e, eBits) || e.match(addr, bits);
}

function cidrProblem(what: string, cidr: string): ClusterProblem | undefined {
  if (!ipaddr.isValidCIDR(cidr)) return { fatal: true, message: `${what} ${cidr} is not a valid CIDR` };
  if (overlapsClassE(cidr))
    return { fatal: true, message: `${what} ${cidr} uses class E addresses (240.0.0.0/4)` };
  return undefined;
}

function namedCidrs(facts: ClusterNetworkFacts, service: string | undefined): [string, string][] {
  const hybridNets = facts.ovnKubernetesConfig?.hybridOverlayConfig?.hybridClusterNetwork ?? [];
  return [
    ...(service ? [['service network', service] as [string, string]] : []),
    ...(facts.clusterNetwork ?? []).map((n): [string, string] => ['cluster network', n.cidr]),
    ...hybridNets.flatMap((n): [string, string][] => (n.cidr ? [['hybrid cluster network', n.cidr]] : [])),
  ];
}

/** Network checks of the start-up sequence (reference §1.2–§1.3), with upstream's messages. */
export function networkProblems(facts: ClusterNetworkFacts): ClusterProblem[] {
  if (facts.networkType !== 'OVNKubernetes') {
    return [{ fatal: true, message: `${facts.networkType ?? '(unset)'} : network type not supported` }];
  }
  const hybrid = facts.ovnKubernetesConfig?.hybridOverlayConfig;
  if (!hybrid) return [{ fatal: true, message: 'cluster is not configured for OVN hybrid networking' }];
  const problems: ClusterProblem[] = [];
  const hybridNets = hybrid.hybridClusterNetwork ?? [];
  if (hybridNets.length === 0 || hybridNets.some((n) => !n.cidr)) {
    problems.push({ fatal: true, message: 'invalid OVN hybrid networking configuration' });
  }
  const service = facts.serviceNetwork?.[0];
  if (!service) problems.push({ fatal: true, message: 'cluster has no service network' });
  problems.push(...namedCidrs(facts, service).flatMap(([what, cidr]) => cidrProblem(what, cidr) ?? []));
  return problems;
}

/** Checks `/version`'s gitVersion against the supported range (major.minor only, as upstream). */
export function kubernetesVersionProblem(gitVersion: string): ClusterProblem | undefined {
  const v = semver.coerce(gitVersion);
  if (!v) return { fatal: true, message: `cannot parse Kubernetes version ${gitVersion}` };
  const minor = `${v.major}.${v.minor}`;
  const ok =
    semver.gte(`${minor}.0`, SUPPORTED_KUBERNETES.min) &&
    semver.lte(`${minor}.0`, `${SUPPORTED_KUBERNETES.maxMinor}.0`);
  if (ok) return undefined;
  return {
    fatal: true,
    message: `Kubernetes ${gitVersion} is not supported: this release supports v${SUPPORTED_KUBERNETES.min.replace(/\.0$/, '')} to v${SUPPORTED_KUBERNETES.maxMinor}`,
  };
}

/** The hybrid overlay VXLAN port as a string, or '' when the cluster uses the default. */
export function vxlanPort(facts: ClusterNetworkFacts): string {
  const port = facts.ovnKubernetesConfig?.hybridOverlayConfig?.hybridOverlayVXLANPort;
  return port === undefined ? '' : String(port);
}
