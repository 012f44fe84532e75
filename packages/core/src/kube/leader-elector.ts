import type { Clock } from './clock.js';
import { LeaseConflictError, type LeaseRecord, type LeaseStore } from './lease-store.js';
import { errorMessage, silentLogger, type Logger } from './logger.js';

export interface LeaderElectionConfig {
  /** This process; usually the pod name. */
  readonly identity: string;
  /** How long a lease holds without renewal (client-go default 15 s). */
  readonly leaseDurationMs: number;
  /** A leader that cannot renew for this long gives up (client-go default 10 s). */
  readonly renewDeadlineMs: number;
  /** Pause between attempts (client-go default 2 s). */
  readonly retryPeriodMs: number;
}

/** Who hears about an elector that cannot lead. */
export interface LeaderElectionObserver {
  readonly logger?: Logger;
  /**
   * The API server refused a Lease write for a reason other than another writer (a 409 is ordinary
   * contention): this process cannot lead until that changes. Called once per distinct reason.
   */
  readonly onWriteRefused?: (reason: string) => void;
}

export const DEFAULT_LEADER_ELECTION: Omit<LeaderElectionConfig, 'identity'> = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
};

/**
 * Lease-based leader election with client-go's rules. Another holder's lease counts as valid until
 * `leaseDuration` has passed on OUR clock since we last saw the record change (never trusting the other
 * side's timestamps), so two electors never both believe they lead while clocks are sane.
 */
export class LeaderElector {
  private observed: { record: LeaseRecord | undefined; at: number } = { record: undefined, at: 0 };
  private lastRefusal: string | undefined;
  private readonly logger: Logger;

  constructor(
    private readonly store: LeaseStore,
    private readonly clock: Clock,
    private readonly config: LeaderElectionConfig,
    private readonly observer: LeaderElectionObserver = {},
  ) {
    this.logger = observer.logger ?? silentLogger;
    if (!(config.leaseDurationMs > config.renewDeadlineMs && config.renewDeadlineMs > config.retryPeriodMs)) {
      throw new Error('leader election needs leaseDuration > renewDeadline > retryPeriod');
    }
  }

  /** True when the last record we saw names us as holder. */
  get holdsLease(): boolean {
    return this.observed.record?.holderIdentity === this.config.identity;
  }

  /** True when the last record we saw names another, still valid, holder. */
  leaseHeldByOther(): boolean {
    const r = this.observed.record;
    return r !== undefined && this.heldByOther(r, this.clock.now());
  }

  /** One attempt to take or keep the lease. True when we hold it afterwards. */
  async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.clock.now();
    let current: LeaseRecord | undefined;
    try {
      current = await this.store.get();
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'cannot read leader lease');
      return false;
    }
    if (current?.resourceVersion !== this.observed.record?.resourceVersion)
      this.observed = { record: current, at: now };
    if (current && this.heldByOther(current, now)) return false;
    return this.write(current, now);
  }

  /** Gives the lease up so a successor need not wait out its duration. */
  async release(): Promise<void> {
    const current = this.observed.record;
    if (!current || current.holderIdentity !== this.config.identity) return;
    const at = new Date(this.clock.now()).toISOString();
    try {
      const written = await this.store.update({
        ...current,
        holderIdentity: '',
        leaseDurationSeconds: 1,
        renewTime: at,
      });
      this.observed = { record: written, at: this.clock.now() };
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'cannot release leader lease');
    }
  }

  private heldByOther(record: LeaseRecord, now: number): boolean {
    if (record.holderIdentity === '' || record.holderIdentity === this.config.identity) return false;
    return this.observed.at + record.leaseDurationSeconds * 1000 > now;
  }

  private nextRecord(current: LeaseRecord | undefined, now: number): LeaseRecord {
    const at = new Date(now).toISOString();
    const mine = current?.holderIdentity === this.config.identity;
    const transitions = current?.leaseTransitions ?? 0;
    const base: LeaseRecord = {
      holderIdentity: this.config.identity,
      leaseDurationSeconds: Math.ceil(this.config.leaseDurationMs / 1000),
      acquireTime: at,
      renewTime: at,
      leaseTransitions: transitions,
    };
    if (!current) return base;
    const rv = current.resourceVersion === undefined ? {} : { resourceVersion: current.resourceVersion };
    if (mine) return { ...base, acquireTime: current.acquireTime, ...rv };
    return { ...base, leaseTransitions: transitions + 1, ...rv };
  }

  private async write(current: LeaseRecord | undefined, now: number): Promise<boolean> {
    const next = this.nextRecord(current, now);
    try {
      const written = current ? await this.store.update(next) : await this.store.create(next);
      this.observed = { record: written, at: now };
      this.lastRefusal = undefined;
      return true;
    } catch (err) {
      if (err instanceof LeaseConflictError) this.logger.debug({ err: err.message }, 'leader lease taken');
      else this.refused(errorMessage(err));
      return false;
    }
  }

  /** A refused write (400, 403, 422...) is an error someone must see, not contention: log it, report it. */
  private refused(reason: string): void {
    if (reason === this.lastRefusal)
      return this.logger.debug({ err: reason }, 'leader lease write refused again');
    this.lastRefusal = reason;
    this.logger.error(
      { err: reason },
      'cannot write the leader Lease: this operator cannot lead until it can',
    );
    this.observer.onWriteRefused?.(reason);
  }
}
