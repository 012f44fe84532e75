/**
 * The labels a kubelet may set on its own Node under NodeRestriction: `kubeletLabels` and
 * `kubeletLabelNamespaces` of k8s.io/kubelet/pkg/apis/well_known_labels.go, and the admission plugin's
 * `getForbiddenLabels` (plugin/pkg/admission/noderestriction/admission.go), both read at v1.30-v1.33.
 */
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
const KUBELET_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

function labelNamespace(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

const inDomain = (ns: string, domain: string): boolean => ns === domain || ns.endsWith(`.${domain}`);

function isKubeletLabel(key: string): boolean {
  const ns = labelNamespace(key);
  return KUBELET_LABELS.has(key) || KUBELET_NAMESPACES.some((d) => inDomain(ns, d));
}

function forbidden(key: string): boolean {
  const ns = labelNamespace(key);
  if (inDomain(ns, 'node-restriction.kubernetes.io')) return true;
  const kubernetes = inDomain(ns, 'kubernetes.io') || inDomain(ns, 'k8s.io');
  return kubernetes && !isKubeletLabel(key);
}

/** The keys added, removed or changed between two label maps that a node may not touch, sorted. */
export function forbiddenLabelChanges(
  next: Readonly<Record<string, string>>,
  old: Readonly<Record<string, string>>,
): string[] {
  const keys = new Set([...Object.keys(next), ...Object.keys(old)]);
  return [...keys].filter((k) => next[k] !== old[k] && forbidden(k)).sort();
}
