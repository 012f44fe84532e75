import type { Clock } from './clock.js';
import type { LeaseRecord, LeaseStore } from './lease-store.js';
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

  constructor(
    private readonly store: LeaseStore,
    private readonly clock: Clock,
    private readonly config: LeaderElectionConfig,
    private readonly logger: Logger = silentLogger,
  ) {
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
      return true;
    } catch (err) {
      this.logger.debug({ err: errorMessage(err) }, 'leader lease write failed');
      return false;
    }
  }
}
