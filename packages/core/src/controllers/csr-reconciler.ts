import type { CertificatesV1Api, V1CertificateSigningRequest, V1Node } from '@kubernetes/client-node';
import { decideKubeletCsr, KUBELET_CLIENT_SIGNER, type CsrDecision } from '../admit/csr-policy.js';
import { CsrParseError, parseCsr, type ParsedCsr } from '../admit/csr-request.js';
import { APPROVAL_REASON, approvalMessage } from '../admit/approval-record.js';
import type { BootstrapIdentity } from '../identity/bootstrap-identity.js';
import type { OwnedNode, Registrations } from '../identity/registrations.js';
import type { NodeRecords } from '../identity/node-record-store.js';
import { recordDisagreements } from '../lifecycle/node-record-check.js';
import type { CachedCsr } from '../admit/cached-csr.js';
import { isConflict, isNotFound } from '../kube/client/api-errors.js';
import type { Reconciler, ReconcileOutcome } from '../kube/controller.js';
import type { EventRecorder } from '../kube/event-recorder.js';
import type { Logger } from '../kube/logger.js';

export interface CsrMetrics {
  decided?(decision: 'approved' | 'refused'): void;
}

export interface CsrReconcilerOptions {
  readonly events: EventRecorder;
  readonly logger: Logger;
  readonly namespace: string;
  readonly metrics?: CsrMetrics;
  /** Who may request kubelet client certificates (OpenShift: the node-bootstrapper service account). */
  readonly bootstrap: BootstrapIdentity;
  /** The Node of that name, of any OS, read from the API server (undefined: none). */
  readonly readNode: (name: string) => Promise<V1Node | undefined>;
  /** The operator's records: serving CSRs are judged against them, never against the Node (ADR 0035). */
  readonly records: NodeRecords;
}

/** At most this many refused CSR names are remembered (to record one event each); oldest go first. */
const MAX_REMEMBERED_REFUSALS = 1024;
type Refusal = Extract<CsrDecision, { action: 'refuse' }>;

/** Approved, denied or failed: nothing left to decide (conditions are never taken back). */
export function csrDecided(csr: CachedCsr | V1CertificateSigningRequest): boolean {
  return (csr.status?.conditions ?? []).some(
    (c) => c.type === 'Approved' || c.type === 'Denied' || c.type === 'Failed',
  );
}

/**
 * Approves the kubelet CSRs of BYOH instances, and only those (ADR 0008, admit/csr-policy.ts). A client
 * CSR is bound to one registration: the claim is taken before the approval is written, so a second CSR
 * for the same registration is refused even when two workers look at both at once. A refused CSR stays
 * pending with one event on `windows-instances`; anything that concerns no registration or owned node
 * is left alone, silently, for the cluster's other approvers.
 */
export class CsrReconciler implements Reconciler {
  readonly name = 'certificatesigningrequests';
  private readonly refused = new Set<string>();

  constructor(
    private readonly api: CertificatesV1Api,
    private readonly registrations: Registrations,
    private readonly out: CsrReconcilerOptions,
  ) {}

  async reconcile(name: string): Promise<ReconcileOutcome | undefined> {
    const csr = await this.read(name);
    if (!csr) {
      this.refused.delete(name);
      return undefined;
    }
    if (csrDecided(csr)) return undefined;
    const decision = await this.decide(name, csr);
    if (decision.action === 'approve') await this.approve(name, csr, decision);
    if (decision.action === 'refuse') await this.refuse(name, decision);
    return undefined;
  }

  /** Forgets a CSR that was deleted. */
  forget(name: string): void {
    this.refused.delete(name);
  }

  private async decide(name: string, csr: V1CertificateSigningRequest): Promise<CsrDecision> {
    let parsed: ParsedCsr;
    try {
      parsed = await parseCsr(csr.spec.request);
    } catch (err) {
      if (err instanceof CsrParseError) return { action: 'ignore', reason: err.message };
      throw err;
    }
    const cn = parsed.commonName;
    const nodeName = cn.startsWith('system:node:') ? cn.slice('system:node:'.length) : '';
    const { owned, exists, contradiction } = await this.subject(nodeName);
    const spec = {
      name,
      signerName: csr.spec.signerName,
      usages: csr.spec.usages ?? [],
      username: csr.spec.username ?? '',
      groups: csr.spec.groups ?? [],
      created: csr.metadata?.creationTimestamp,
    };
    return decideKubeletCsr(parsed, spec, {
      bootstrap: this.out.bootstrap,
      registration: (n) => this.registrations.forNode(n),
      owned: (n) => (n === nodeName ? owned : this.ownedNode(n)),
      nodeExists: (n) => n === nodeName && exists,
      contradiction: (n) => (n === nodeName ? contradiction : undefined),
    });
  }

  /**
   * What the policy needs of the CSR's node: the record, whether the Node exists and where it contradicts
   * the record. The Node is read only for names the operator holds (other nodes' CSRs cost no API call).
   */
  private async subject(
    nodeName: string,
  ): Promise<{ owned?: OwnedNode | undefined; exists: boolean; contradiction?: string | undefined }> {
    if (nodeName === '') return { exists: false };
    const owned = this.ownedNode(nodeName);
    if (owned === undefined && this.registrations.forNode(nodeName) === undefined) return { exists: false };
    const node = await this.out.readNode(nodeName);
    const record = owned === undefined ? undefined : this.out.records.forNode(nodeName);
    const problems = node && record ? recordDisagreements(node, record) : [];
    return { owned, exists: node !== undefined, contradiction: problems.join('; ') || undefined };
  }

  /** A listed host's node as the operator recorded it at join: its name, instance key and addresses. */
  private ownedNode(nodeName: string): OwnedNode | undefined {
    const r = this.out.records.forNode(nodeName);
    // A listed host's node (windows-instances or an embedder's source); Machines' CSRs are not decided here.
    if (r === undefined || r.source === 'machine') return undefined;
    return {
      address: r.instance,
      ipv4: r.address,
      nodeName: r.nodeName,
      ...(r.dnsName === undefined ? {} : { dnsName: r.dnsName }),
    };
  }

  private async approve(
    name: string,
    csr: V1CertificateSigningRequest,
    d: Extract<CsrDecision, { action: 'approve' }>,
  ): Promise<void> {
    const { nodeName, address } = d.instance;
    const client = csr.spec.signerName === KUBELET_CLIENT_SIGNER;
    if (client && !this.registrations.claimClient(nodeName, name)) {
      await this.refuse(name, {
        action: 'refuse',
        instance: d.instance,
        reason: `the registration of instance ${address} already has an approved client CSR`,
      });
      return;
    }
    try {
      await this.writeApproval(csr, approvalMessage(nodeName, address));
    } catch (err) {
      if (client) this.registrations.releaseClient(nodeName, name);
      throw err;
    }
    this.out.metrics?.decided?.('approved');
    this.out.logger.info({ csr: name, reason: d.reason }, 'approved kubelet CSR');
  }

  /** Writes the approval on the CSR as the reconcile read it; read again only after a conflict. */
  private async writeApproval(read: V1CertificateSigningRequest, message: string): Promise<void> {
    const name = read.metadata?.name ?? '';
    let csr: V1CertificateSigningRequest | undefined = read;
    for (let attempt = 0; attempt < 5; attempt++) {
      if (!csr || csrDecided(csr)) return;
      if (await this.tryApprove(csr, message)) return;
      csr = await this.read(name);
    }
    throw new Error(`cannot approve CSR ${name}: it keeps changing`);
  }

  /** One approval write; false on a conflict (the CSR changed since it was read). */
  private async tryApprove(csr: V1CertificateSigningRequest, message: string): Promise<boolean> {
    const approved = {
      type: 'Approved',
      status: 'True',
      reason: APPROVAL_REASON,
      message,
      lastUpdateTime: new Date(),
    };
    const conditions = [...(csr.status?.conditions ?? []), approved];
    try {
      await this.api.replaceCertificateSigningRequestApproval({
        name: csr.metadata?.name ?? '',
        body: { ...csr, status: { ...csr.status, conditions } },
      });
      return true;
    } catch (err) {
      if (!isConflict(err)) throw err;
      return false;
    }
  }

  private async refuse(name: string, d: Refusal): Promise<void> {
    if (this.refused.has(name)) return;
    this.remember(name);
    this.out.metrics?.decided?.('refused');
    const message = `CSR ${name} for instance ${d.instance.address} was not approved: ${d.reason}`;
    this.out.logger.warn({ csr: name, instance: d.instance.address }, message);
    await this.out.events.record(
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'windows-instances', namespace: this.out.namespace },
      'Warning',
      'CSRNotApproved',
      message,
    );
  }

  private remember(name: string): void {
    this.refused.add(name);
    if (this.refused.size <= MAX_REMEMBERED_REFUSALS) return;
    const oldest = this.refused.values().next().value;
    if (oldest !== undefined) this.refused.delete(oldest);
  }

  private async read(name: string): Promise<V1CertificateSigningRequest | undefined> {
    try {
      return await this.api.readCertificateSigningRequest({ name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}
