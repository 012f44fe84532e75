import { V1MicroTime, type CoordinationV1Api, type V1Lease } from '@kubernetes/client-node';
import { isConflict, isNotFound } from './api-errors.js';
import { LeaseConflictError, type LeaseRecord, type LeaseStore } from '../lease-store.js';

function toRecord(lease: V1Lease): LeaseRecord {
  const spec = lease.spec ?? {};
  const record: LeaseRecord = {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    acquireTime: spec.acquireTime ? new Date(spec.acquireTime).toISOString() : '',
    renewTime: spec.renewTime ? new Date(spec.renewTime).toISOString() : '',
    leaseTransitions: spec.leaseTransitions ?? 0,
  };
  const rv = lease.metadata?.resourceVersion;
  return rv === undefined ? record : { ...record, resourceVersion: rv };
}

/** The leader Lease as a `coordination.k8s.io/v1` object, with resourceVersion-guarded writes. */
export class KubeLeaseStore implements LeaseStore {
  constructor(
    private readonly api: CoordinationV1Api,
    private readonly namespace: string,
    private readonly name: string,
  ) {}

  async get(): Promise<LeaseRecord | undefined> {
    try {
      return toRecord(await this.api.readNamespacedLease({ name: this.name, namespace: this.namespace }));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async create(record: LeaseRecord): Promise<LeaseRecord> {
    return this.write(() =>
      this.api.createNamespacedLease({ namespace: this.namespace, body: this.toLease(record) }),
    );
  }

  async update(record: LeaseRecord): Promise<LeaseRecord> {
    return this.write(() =>
      this.api.replaceNamespacedLease({
        name: this.name,
        namespace: this.namespace,
        body: this.toLease(record),
      }),
    );
  }

  private async write(call: () => Promise<V1Lease>): Promise<LeaseRecord> {
    try {
      return toRecord(await call());
    } catch (err) {
      if (isConflict(err)) throw new LeaseConflictError();
      throw err;
    }
  }

  private toLease(r: LeaseRecord): V1Lease {
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: this.name,
        namespace: this.namespace,
        ...(r.resourceVersion === undefined ? {} : { resourceVersion: r.resourceVersion }),
      },
      spec: {
        holderIdentity: r.holderIdentity,
        leaseDurationSeconds: r.leaseDurationSeconds,
        leaseTransitions: r.leaseTransitions,
        // MicroTime fields: the API server refuses anything but six fractional digits (a plain Date
        // serialises with three and every write is answered 400).
        ...(r.acquireTime ? { acquireTime: new V1MicroTime(r.acquireTime) } : {}),
        ...(r.renewTime ? { renewTime: new V1MicroTime(r.renewTime) } : {}),
      },
    };
  }
}
