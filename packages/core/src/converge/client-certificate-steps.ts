import type { HostState, PlanStep } from '../host/protocol/index.js';
import type { HostSpec } from '../desired/host-spec.js';

/** Go's `sort.Strings` order (byte-wise), which upstream WICD sorts the certificate names in. */
function ordinal(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * hybrid-overlay's old client certificates: every `ovnkube-client-*.pem` but the `keptClientCertificates`
 * lexicographically newest is removed, as upstream WICD does after each reconcile of the services (reference
 * §1.5: "Delete old `C:\k\cni\config\ovnkube-client-*.pem`, keeping the 2 lexicographically newest"). The
 * names carry the rotation time (`ovnkube-client-2026-11-27-18-00-00.pem`), so the newest sort last; the
 * `-current.pem` link sorts after them all and is kept. Nothing when the spec keeps them all.
 */
export function clientCertificateSteps(state: HostState, spec: HostSpec): PlanStep[] {
  const keep = spec.keptClientCertificates;
  if (keep === undefined) return [];
  const names = [...(state.clientCertificates ?? [])].sort(ordinal);
  return names
    .slice(0, Math.max(0, names.length - keep))
    .map((name) => ({ kind: 'removeClientCertificate' as const, name }));
}
