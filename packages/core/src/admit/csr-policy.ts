import { bootstrapRequesterProblem, type BootstrapIdentity } from '../identity/bootstrap-identity.js';
import { nodeNameProblem } from '../identity/node-name.js';
import type { OwnedNode, Registration } from '../identity/registrations.js';
import type { ParsedCsr } from './csr-request.js';

export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';
const NODE_PREFIX = 'system:node:';
const NODES_GROUP = 'system:nodes';

/** The API fields of a CertificateSigningRequest the policy looks at. */
export interface CsrSpec {
  /** `metadata.name`: a client CSR is bound to its registration by it. */
  readonly name: string;
  readonly signerName: string;
  readonly usages: readonly string[];
  readonly username: string;
  readonly groups: readonly string[];
  /** `metadata.creationTimestamp` (second precision). */
  readonly created?: Date | undefined;
}

/** What the policy may ask about the cluster and the operator's registrations. */
export interface CsrFacts {
  /** Who may request kubelet client certificates on this cluster. */
  readonly bootstrap: BootstrapIdentity;
  /** The live registration for a node name (client CSRs are approved only against one). */
  registration(nodeName: string): Registration | undefined;
  /** The instance owning the Node of that name, as the operator recorded it (serving CSRs: only those). */
  owned(nodeName: string): OwnedNode | undefined;
  /** A Node of that name exists, of any OS (read from the API server). */
  nodeExists(nodeName: string): boolean;
  /**
   * Where the Node of that name contradicts the operator's record of it (its owner annotation, its
   * InternalIP, ...), or undefined when it agrees: a serving CSR of such a node is never approved.
   */
  contradiction?(nodeName: string): string | undefined;
}

/** The instance a refusal concerns. */
export interface CsrSubjectInstance {
  readonly address: string;
  readonly nodeName: string;
}

export type CsrDecision =
  | { readonly action: 'approve'; readonly instance: CsrSubjectInstance; readonly reason: string }
  /** Not ours to judge (not a node CSR, no registration or owned node): leave it pending, say nothing. */
  | { readonly action: 'ignore'; readonly reason: string }
  /** Concerns a registration or an owned node but breaks a rule: leave it pending, record one event. */
  | { readonly action: 'refuse'; readonly instance: CsrSubjectInstance; readonly reason: string };

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

function clientProblem(csr: ParsedCsr, spec: CsrSpec, facts: CsrFacts, r: Registration): string | undefined {
  if (csr.dnsNames.length + csr.ipAddresses.length > 0) return 'a client certificate may not carry SANs';
  const requester = bootstrapRequesterProblem(facts.bootstrap, spec);
  if (requester) return requester;
  // A CSR sent before the registration began (a guess at a name, waiting) never takes its place.
  if (r.approvedClientCsr === undefined && createdBefore(spec.created, r.acceptsSince))
    return `created before the registration of instance ${r.address} began`;
  if (r.approvedClientCsr !== undefined && r.approvedClientCsr !== spec.name)
    return `the registration of instance ${r.address} already has an approved client CSR (${r.approvedClientCsr})`;
  if (facts.nodeExists(r.nodeName)) return `node ${r.nodeName} already exists`;
  return usageProblem(spec.usages, CLIENT_USAGES, 'client auth');
}

/** Timestamps have second precision: compare whole seconds. */
function createdBefore(created: Date | undefined, began: Date): boolean {
  if (created === undefined) return true;
  return Math.floor(created.getTime() / 1000) < Math.floor(began.getTime() / 1000);
}

/** SANs ⊆ {instance IPv4, its windows-instances DNS name, the node name}: never what the Node reports. */
function servingProblem(
  csr: ParsedCsr,
  spec: CsrSpec,
  facts: CsrFacts,
  owned: OwnedNode,
): string | undefined {
  if (spec.username !== NODE_PREFIX + owned.nodeName || !spec.groups.includes(NODES_GROUP))
    return `requested by ${spec.username}, not by node ${owned.nodeName} itself`;
  if (!facts.nodeExists(owned.nodeName)) return `node ${owned.nodeName} does not exist`;
  const contradiction = facts.contradiction?.(owned.nodeName);
  if (contradiction !== undefined)
    return `node ${owned.nodeName} contradicts the operator's record of instance ${owned.address}: ${contradiction}`;
  const names = new Set([owned.nodeName, ...(owned.dnsName === undefined ? [] : [owned.dnsName])]);
  const badIp = csr.ipAddresses.find((ip) => ip !== owned.ipv4);
  if (badIp !== undefined) return `IP SAN ${badIp} is not the address of instance ${owned.address}`;
  const badName = csr.dnsNames.find((n) => !names.has(n));
  if (badName !== undefined) return `DNS SAN ${badName} is not a name of instance ${owned.address}`;
  return usageProblem(spec.usages, SERVING_USAGES, 'server auth');
}

function verdict(
  holder: { readonly address: string },
  nodeName: string,
  problem: string | undefined,
  kind: 'client' | 'serving',
): CsrDecision {
  const instance = { address: holder.address, nodeName };
  if (problem !== undefined) return { action: 'refuse', instance, reason: problem };
  return { action: 'approve', instance, reason: `${kind} certificate of BYOH instance ${holder.address}` };
}

/**
 * Decides a kubelet CSR for BYOH instances (reference §1.9, tightened; ADR 0008). The node name is the
 * common name after `system:node:`, compared exactly (no case folding, ASCII only). A client CSR is
 * approved only against a live registration of that name, from the cluster's bootstrap identity, once
 * per registration, while no Node of that name exists. A serving CSR only for a Node this operator owns,
 * from that node's own identity, with SANs the operator knows of the instance.
 */
export function decideKubeletCsr(csr: ParsedCsr, spec: CsrSpec, facts: CsrFacts): CsrDecision {
  const client = spec.signerName === KUBELET_CLIENT_SIGNER;
  if (!client && spec.signerName !== KUBELET_SERVING_SIGNER) {
    return { action: 'ignore', reason: `signer ${spec.signerName} is not a kubelet signer` };
  }
  if (!csr.commonName.startsWith(NODE_PREFIX)) return { action: 'ignore', reason: 'not a node certificate' };
  const nodeName = csr.commonName.slice(NODE_PREFIX.length);
  if (nodeNameProblem(nodeName) !== undefined)
    return { action: 'ignore', reason: `common name ${JSON.stringify(csr.commonName)} is no node name` };
  if (client) {
    const r = facts.registration(nodeName);
    if (!r) return { action: 'ignore', reason: `no live registration is named ${nodeName}` };
    return verdict(r, nodeName, subjectProblem(csr) ?? clientProblem(csr, spec, facts, r), 'client');
  }
  const owned = facts.owned(nodeName);
  if (!owned) return { action: 'ignore', reason: `no node this operator joined is named ${nodeName}` };
  return verdict(owned, nodeName, subjectProblem(csr) ?? servingProblem(csr, spec, facts, owned), 'serving');
}
