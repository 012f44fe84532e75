/** What the signer checks of a request. */
export interface ParsedCsr {
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly sans: readonly { readonly type: string; readonly value: string }[];
}

/** Returns undefined when the request may be signed, else the failure message. */
export type SignerRule = (csr: ParsedCsr, usages: readonly string[]) => string | undefined;

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
}

function sortedList(xs: readonly string[]): string {
  return `[${[...xs].sort().join(' ')}]`;
}

function nodeSubject(csr: ParsedCsr): string | undefined {
  if (!sameSet(csr.organizations, ['system:nodes']) || csr.organizations.length !== 1)
    return 'subject organization is not system:nodes';
  if (!csr.commonName.startsWith('system:node:'))
    return 'subject common name does not begin with system:node:';
  return undefined;
}

const CLIENT_KUBELET = ['digital signature', 'key encipherment', 'client auth'];
const CLIENT_KUBELET_NO_RSA = ['digital signature', 'client auth'];
const SERVING_KUBELET = ['digital signature', 'key encipherment', 'server auth'];
const SERVING_KUBELET_NO_RSA = ['digital signature', 'server auth'];

/**
 * The current upstream checks (k8s.io/kubernetes pkg/apis/certificates ValidateKubeletClientCSR /
 * ValidateKubeletServingCSR and the kube-apiserver-client usage check). Since 1.27 the kubelet signers
 * accept the usage set with or without `key encipherment`; v1.24 (row 2) required it.
 */
const kubeletClient: SignerRule = (csr, usages) => {
  const subject = nodeSubject(csr);
  if (subject) return subject;
  if (csr.sans.some((n) => n.type === 'dns')) return 'DNS subjectAltNames are not allowed';
  if (csr.sans.some((n) => n.type === 'email')) return 'Email subjectAltNames are not allowed';
  if (csr.sans.some((n) => n.type === 'ip')) return 'IP subjectAltNames are not allowed';
  if (csr.sans.some((n) => n.type === 'url')) return 'URI subjectAltNames are not allowed';
  if (!sameSet(usages, CLIENT_KUBELET) && !sameSet(usages, CLIENT_KUBELET_NO_RSA))
    return `usages did not match ${sortedList(CLIENT_KUBELET)}`;
  return undefined;
};

const kubeletServing: SignerRule = (csr, usages) => {
  if (!sameSet(usages, SERVING_KUBELET) && !sameSet(usages, SERVING_KUBELET_NO_RSA))
    return `usages did not match ${sortedList(SERVING_KUBELET)}`;
  const subject = nodeSubject(csr);
  if (subject) return subject;
  if (!csr.sans.some((n) => n.type === 'dns' || n.type === 'ip'))
    return 'DNS or IP subjectAltName is required';
  if (csr.sans.some((n) => n.type === 'email')) return 'Email subjectAltNames are not allowed';
  if (csr.sans.some((n) => n.type === 'url')) return 'URI subjectAltNames are not allowed';
  return undefined;
};

const apiServerClient: SignerRule = (_csr, usages) => {
  for (const u of usages) {
    if (!['digital signature', 'key encipherment', 'client auth'].includes(u))
      return `invalid usage for client certificate: ${u}`;
  }
  return usages.includes('client auth')
    ? undefined
    : 'missing required usage for client certificate: client auth';
};

const RULES: Readonly<Record<string, SignerRule>> = {
  'kubernetes.io/kube-apiserver-client-kubelet': kubeletClient,
  'kubernetes.io/kubelet-serving': kubeletServing,
  'kubernetes.io/kube-apiserver-client': apiServerClient,
};

export function signerRules(signerName: string): SignerRule | undefined {
  return RULES[signerName];
}
