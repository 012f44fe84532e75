/** The fields of a `coordination.k8s.io/v1` Lease that leader election reads and writes. */
export interface LeaseRecord {
  readonly holderIdentity: string;
  readonly leaseDurationSeconds: number;
  readonly acquireTime: string;
  readonly renewTime: string;
  readonly leaseTransitions: number;
  /** Opaque; an update carrying a stale one fails with LeaseConflictError. */
  readonly resourceVersion?: string;
}

/** Someone else wrote the Lease since we read it (HTTP 409, or 409 AlreadyExists on create). */
export class LeaseConflictError extends Error {
  constructor(message = 'lease was changed by someone else') {
    super(message);
    this.name = 'LeaseConflictError';
  }
}

/** The one Lease object an elector competes for. */
export interface LeaseStore {
  get(): Promise<LeaseRecord | undefined>;
  create(record: LeaseRecord): Promise<LeaseRecord>;
  update(record: LeaseRecord): Promise<LeaseRecord>;
}

/** An in-memory Lease with optimistic concurrency, for tests and for several electors in one process. */
export class InMemoryLeaseStore implements LeaseStore {
  private record: LeaseRecord | undefined;
  private version = 0;
  failNext: Error | undefined;

  get(): Promise<LeaseRecord | undefined> {
    return this.maybeFail(() => this.record);
  }

  create(record: LeaseRecord): Promise<LeaseRecord> {
    return this.maybeFail(() => {
      if (this.record) throw new LeaseConflictError('lease already exists');
      return this.store(record);
    });
  }

  update(record: LeaseRecord): Promise<LeaseRecord> {
    return this.maybeFail(() => {
      if (!this.record || record.resourceVersion !== this.record.resourceVersion)
        throw new LeaseConflictError();
      return this.store(record);
    });
  }

  private store(record: LeaseRecord): LeaseRecord {
    this.version++;
    this.record = { ...record, resourceVersion: String(this.version) };
    return this.record;
  }

  private maybeFail<T>(fn: () => T): Promise<T> {
    const err = this.failNext;
    this.failNext = undefined;
    if (err) return Promise.reject(err);
    try {
      return Promise.resolve(fn());
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }
}
