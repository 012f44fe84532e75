import type { CertificatesV1Api, V1CertificateSigningRequest } from '@kubernetes/client-node';
import { decideKubeletCsr, type CsrDecision } from '../admit/csr-policy.js';
import { CsrParseError, parseCsr } from '../admit/csr-request.js';
import { isConflict, isNotFound } from '../kube/client/api-errors.js';
import type { Reconciler, ReconcileOutcome } from '../kube/controller.js';
import type { EventRecorder } from '../kube/event-recorder.js';
import type { Logger } from '../kube/logger.js';
import type { ByohView } from './byoh-view.js';
import type { NodeNameRegistry } from './node-name-registry.js';

export interface CsrMetrics {
  decided?(decision: 'approved' | 'refused'): void;
}

function decided(csr: V1CertificateSigningRequest): boolean {
  return (csr.status?.conditions ?? []).some(
    (c) => c.type === 'Approved' || c.type === 'Denied' || c.type === 'Failed',
  );
}

/**
 * Approves the kubelet CSRs of BYOH instances, and only those (reference §1.9, tightened; see
 * admit/csr-policy.ts). A refused CSR stays pending, with one event on `windows-instances` naming the
 * instance and the reason; anything that concerns no instance is left alone, silently, for the cluster's
 * other approvers (machine-backed nodes belong to the machine approver).
 */
export class CsrReconciler implements Reconciler {
  readonly name = 'certificatesigningrequests';
  private readonly refused = new Set<string>();

  constructor(
    private readonly api: CertificatesV1Api,
    private readonly view: ByohView,
    private readonly names: NodeNameRegistry,
    private readonly out: { events: EventRecorder; logger: Logger; namespace: string; metrics?: CsrMetrics },
  ) {}

  async reconcile(name: string): Promise<ReconcileOutcome | undefined> {
    const csr = await this.read(name);
    if (!csr || decided(csr)) return undefined;
    const decision = await this.decide(csr);
    if (decision.action === 'approve') await this.approve(name, decision.reason);
    if (decision.action === 'refuse') await this.refuse(name, decision);
    return undefined;
  }

  private async decide(csr: V1CertificateSigningRequest): Promise<CsrDecision> {
    try {
      const parsed = await parseCsr(csr.spec.request);
      return decideKubeletCsr(
        parsed,
        {
          signerName: csr.spec.signerName,
          usages: csr.spec.usages ?? [],
          username: csr.spec.username ?? '',
          groups: csr.spec.groups ?? [],
        },
        { instances: this.names.all(), node: (n) => this.nodeFacts(n) },
      );
    } catch (err) {
      if (err instanceof CsrParseError) return { action: 'ignore', reason: err.message };
      throw err;
    }
  }

  private nodeFacts(name: string): { addresses: { type: string; address: string }[] } | undefined {
    const node = this.view.node(name);
    return node
      ? { addresses: (node.status?.addresses ?? []).map((a) => ({ type: a.type, address: a.address })) }
      : undefined;
  }

  private async approve(name: string, reason: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const csr = await this.read(name);
      if (!csr || decided(csr)) return;
      const conditions = [
        ...(csr.status?.conditions ?? []),
        {
          type: 'Approved',
          status: 'True',
          reason: 'WMCOApprove',
          message: 'This CSR was approved by the WMCO certificate Approver.',
          lastUpdateTime: new Date(),
        },
      ];
      try {
        await this.api.replaceCertificateSigningRequestApproval({
          name,
          body: { ...csr, status: { ...csr.status, conditions } },
        });
        this.out.metrics?.decided?.('approved');
        this.out.logger.info({ csr: name, reason }, 'approved kubelet CSR');
        return;
      } catch (err) {
        if (!isConflict(err)) throw err;
      }
    }
    throw new Error(`cannot approve CSR ${name}: it keeps changing`);
  }

  private async refuse(name: string, d: Extract<CsrDecision, { action: 'refuse' }>): Promise<void> {
    if (this.refused.has(name)) return;
    this.refused.add(name);
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

  private async read(name: string): Promise<V1CertificateSigningRequest | undefined> {
    try {
      return await this.api.readCertificateSigningRequest({ name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}
