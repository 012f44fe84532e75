import type { ParsedCsr } from './csr-request.js';

export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';
const NODE_PREFIX = 'system:node:';
const NODES_GROUP = 'system:nodes';
const RFC1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The API fields of a CertificateSigningRequest the policy looks at. */
export interface CsrSpec {
  readonly signerName: string;
  readonly usages: readonly string[];
  readonly username: string;
  readonly groups: readonly string[];
}

/** A BYOH instance as the approver knows it: the exact node name it registers under. */
export interface KnownInstance {
  readonly address: string;
  readonly ipv4: string;
  readonly nodeName: string;
}

export interface NodeFacts {
  readonly addresses: readonly { readonly type: string; readonly address: string }[];
}

/** What the policy may ask about the cluster; the controller answers from its caches. */
export interface CsrFacts {
  /** Instances whose registration name is known (override on the host, else its hostname). */
  readonly instances: readonly KnownInstance[];
  node(name: string): NodeFacts | undefined;
}

export type CsrDecision =
  | { readonly action: 'approve'; readonly nodeName: string; readonly reason: string }
  /** Not ours to judge (not a node CSR, no instance concerned): leave it pending, say nothing. */
  | { readonly action: 'ignore'; readonly reason: string }
  /** Concerns a known instance but breaks a rule: leave it pending and record an event. */
  | { readonly action: 'refuse'; readonly instance: KnownInstance; readonly reason: string };

const CLIENT_USAGES = new Set(['digital signature', 'key encipherment', 'client auth']);
const SERVING_USAGES = new Set(['digital signature', 'key encipherment', 'server auth']);

function usageProblem(usages: readonly string[], allowed: Set<string>, required: string): string | undefined {
  if (new Set(usages).size !== usages.length) return 'usages are listed twice';
  const extra = usages.filter((u) => !allowed.has(u));
  if (extra.length > 0) return `usages not allowed: ${extra.join(', ')}`;
  if (!usages.includes(required)) return `usages lack '${required}'`;
  if (usages.length < 2) return 'too few usages';
  return undefined;
}

function subjectProblem(csr: ParsedCsr): string | undefined {
  if (!csr.signatureValid) return 'the request signature does not verify';
  if (csr.organizations.length !== 1)
    return `expected exactly one organization, got [${csr.organizations.join(', ')}]`;
  if (csr.organizations[0] !== NODES_GROUP) return `organization must be ${NODES_GROUP}`;
  if (csr.otherNames.length > 0)
    return `subject alternative names of a kind not allowed: ${csr.otherNames.join(', ')}`;
  return undefined;
}

function clientProblem(csr: ParsedCsr, spec: CsrSpec, facts: CsrFacts, nodeName: string): string | undefined {
  if (csr.dnsNames.length + csr.ipAddresses.length > 0) return 'a client certificate may not carry SANs';
  if (!spec.groups.includes('system:bootstrappers'))
    return 'a client certificate must be requested with a bootstrap token';
  if (facts.node(nodeName)) return `node ${nodeName} already exists`;
  return usageProblem(spec.usages, CLIENT_USAGES, 'client auth');
}

function servingProblem(
  csr: ParsedCsr,
  spec: CsrSpec,
  facts: CsrFacts,
  instance: KnownInstance,
): string | undefined {
  const node = facts.node(instance.nodeName);
  if (!node) return `node ${instance.nodeName} does not exist yet`;
  if (spec.username !== NODE_PREFIX + instance.nodeName || !spec.groups.includes(NODES_GROUP)) {
    return `requested by ${spec.username}, not by node ${instance.nodeName} itself`;
  }
  const ips = new Set([
    instance.ipv4,
    ...node.addresses.filter((a) => a.type.endsWith('IP')).map((a) => a.address),
  ]);
  const names = new Set([
    instance.nodeName,
    ...node.addresses.filter((a) => !a.type.endsWith('IP')).map((a) => a.address),
  ]);
  const badIp = csr.ipAddresses.find((ip) => !ips.has(ip));
  if (badIp) return `IP SAN ${badIp} is not an address of node ${instance.nodeName}`;
  const badName = csr.dnsNames.find((n) => !names.has(n));
  if (badName) return `DNS SAN ${badName} is not a name of node ${instance.nodeName}`;
  return usageProblem(spec.usages, SERVING_USAGES, 'server auth');
}

function requestProblem(
  csr: ParsedCsr,
  spec: CsrSpec,
  facts: CsrFacts,
  instance: KnownInstance,
): string | undefined {
  if (!RFC1123_SUBDOMAIN.test(instance.nodeName)) return `${instance.nodeName} is not an RFC 1123 name`;
  const problem = subjectProblem(csr);
  if (problem) return problem;
  return spec.signerName === KUBELET_CLIENT_SIGNER
    ? clientProblem(csr, spec, facts, instance.nodeName)
    : servingProblem(csr, spec, facts, instance);
}

function unknownName(nodeName: string, facts: CsrFacts): CsrDecision {
  const target = imitated(nodeName, facts);
  if (!target) return { action: 'ignore', reason: `no BYOH instance registers as ${nodeName}` };
  return {
    action: 'refuse',
    instance: target,
    reason: `node name ${nodeName} only contains ${target.nodeName}`,
  };
}

/** The instance a hostile name imitates: one whose node name it contains (upstream's substring rule). */
function imitated(nodeName: string, facts: CsrFacts): KnownInstance | undefined {
  return facts.instances.find((i) => nodeName !== i.nodeName && nodeName.includes(i.nodeName));
}

/**
 * Decides a kubelet CSR for BYOH instances (reference §1.9, tightened): the node name must equal, exactly,
 * the name a known instance registers under; organization, usages and SANs are checked strictly; a client
 * CSR for an existing node is refused; a serving CSR must come from that node's own identity.
 */
export function decideKubeletCsr(csr: ParsedCsr, spec: CsrSpec, facts: CsrFacts): CsrDecision {
  if (spec.signerName !== KUBELET_CLIENT_SIGNER && spec.signerName !== KUBELET_SERVING_SIGNER) {
    return { action: 'ignore', reason: `signer ${spec.signerName} is not a kubelet signer` };
  }
  if (!csr.commonName.startsWith(NODE_PREFIX)) return { action: 'ignore', reason: 'not a node certificate' };
  const nodeName = csr.commonName.slice(NODE_PREFIX.length);
  const instance = facts.instances.find((i) => i.nodeName === nodeName);
  if (!instance) return unknownName(nodeName, facts);
  const client = spec.signerName === KUBELET_CLIENT_SIGNER;
  const problem = requestProblem(csr, spec, facts, instance);
  if (problem) return { action: 'refuse', instance, reason: problem };
  return {
    action: 'approve',
    nodeName,
    reason: `${client ? 'client' : 'serving'} certificate of BYOH instance ${instance.address}`,
  };
}
