import type { StoreEvent } from '../apiserver/event-log.js';
import { parseCsrRequest } from '../apiserver/csr-admission.js';
import { isObject, meta, str, strList, type JsonObject } from '../apiserver/json.js';
import { x509 } from '../apiserver/x509.js';
import { StoreEventController } from '../cluster/controller.js';
import { machineApproverRefusal, type ApproverCsr } from './machine-approver-rules.js';
import { machineType, obj } from './machine-objects.js';

const CSR_KEY = 'certificates.k8s.io/v1/certificatesigningrequests';

function undecided(csr: JsonObject): boolean {
  const conds = obj(csr['status'])['conditions'];
  return !(Array.isArray(conds) ? conds.filter(isObject) : []).some((c) =>
    ['Approved', 'Denied', 'Failed'].includes(str(c['type']) ?? ''),
  );
}

function readCsr(csr: JsonObject): ApproverCsr | undefined {
  const spec = obj(csr['spec']);
  const req = parseCsrRequest(spec['request']);
  if (typeof req === 'string') return undefined;
  const san = req.extensions.find((e) => e instanceof x509.SubjectAlternativeNameExtension);
  const items = san ? san.names.items : [];
  return {
    signerName: str(spec['signerName']) ?? '',
    username: str(spec['username']) ?? '',
    groups: strList(spec['groups']),
    usages: strList(spec['usages']),
    createdMs: Date.parse(str(meta(csr)['creationTimestamp']) ?? ''),
    commonName: req.subjectName.getField('CN')[0] ?? '',
    organizations: req.subjectName.getField('O'),
    dnsNames: items.filter((n) => n.type === 'dns').map((n) => n.value),
    ipAddresses: items.filter((n) => n.type === 'ip').map((n) => n.value),
  };
}

/**
 * The cluster-machine-approver stand-in: approves pending kubelet client CSRs of Machines that have no
 * Node yet and serving CSRs of Machine-backed Nodes, by the approver's rules (machine-approver-rules.ts);
 * it never denies, and CSRs it cannot tie to a Machine stay pending for other approvers.
 */
export class MachineApprover extends StoreEventController {
  readonly name = 'machine-approver';
  /** Why each CSR was not approved (latest), for tests and logs. */
  readonly refusals = new Map<string, string>();

  protected handle(e: StoreEvent): void {
    if (e.typeKey === 'machine.openshift.io/v1beta1/machines') {
      this.all().forEach((c) => this.consider(c));
      return;
    }
    if (e.typeKey !== CSR_KEY || e.type === 'DELETED') return;
    const current = this.writer.store.get(this.csrType(), undefined, str(meta(e.object)['name']) ?? '');
    if (current) this.consider(current);
  }

  private csrType(): ReturnType<typeof machineType> {
    return this.writer.registry.mustFind('certificates.k8s.io', 'v1', 'certificatesigningrequests');
  }

  private all(): JsonObject[] {
    return this.writer.store.all(this.csrType());
  }

  private consider(csr: JsonObject): void {
    if (!undecided(csr)) return;
    const name = str(meta(csr)['name']) ?? '';
    const c = readCsr(csr);
    const nodeType = this.writer.registry.mustFind('', 'v1', 'nodes');
    const refusal = c
      ? machineApproverRefusal(c, {
          machines: this.writer.store.all(machineType(this.writer)),
          nodeExists: (n) => this.writer.store.get(nodeType, undefined, n) !== undefined,
        })
      : 'request does not parse';
    if (refusal !== undefined) {
      this.refusals.set(name, refusal);
      return;
    }
    this.refusals.delete(name);
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const conds = obj(csr['status'])['conditions'];
    const status = {
      ...obj(csr['status']),
      conditions: [
        ...(Array.isArray(conds) ? conds : []),
        {
          type: 'Approved',
          status: 'True',
          reason: 'NodeCSRApprove',
          message: 'This CSR was approved by the Node CSR Approver (cluster-machine-approver)',
          lastUpdateTime: now,
          lastTransitionTime: now,
        },
      ],
    };
    this.writer.update(
      { type: this.csrType(), namespace: undefined, name, subresource: 'approval' },
      { ...csr, status },
    );
  }
}
