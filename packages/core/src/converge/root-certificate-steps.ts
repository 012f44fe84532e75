import type { HostState, PlanStep } from '../host/protocol/index.js';
import type { HostSpec } from '../desired/host-spec.js';

/**
 * The machine Root store against the spec's certificates (after the bundle file is in place): import
 * those not in the store, remove those the operator marked as its own that the spec no longer lists.
 * A certificate that was in the store without the operator's mark (a Windows root, one an admin added)
 * is never removed. Nothing when the spec leaves the store alone.
 */
export function rootCertificateSteps(state: HostState, spec: HostSpec): PlanStep[] {
  const wanted = spec.rootCertificates;
  if (wanted === undefined) return [];
  const observed = state.rootCertificates ?? [];
  const present = new Set(observed.map((c) => c.thumbprint.toUpperCase()));
  const desired = new Set(wanted.thumbprints.map((t) => t.toUpperCase()));
  const missing = [...desired].filter((t) => !present.has(t)).sort();
  const stale = observed
    .filter((c) => c.managed && !desired.has(c.thumbprint.toUpperCase()))
    .map((c) => c.thumbprint.toUpperCase())
    .sort();
  return [
    ...(missing.length > 0
      ? [{ kind: 'importRootCertificates' as const, path: wanted.bundle, thumbprints: missing }]
      : []),
    ...stale.map((thumbprint) => ({ kind: 'removeRootCertificate' as const, thumbprint })),
  ];
}
