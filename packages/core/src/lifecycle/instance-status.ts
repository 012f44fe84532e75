export type InstancePhase =
  | 'Pending'
  | 'Connecting'
  | 'Configuring'
  | 'WaitingForNode'
  | 'Ready'
  | 'Failed'
  | 'Removing'
  | 'Removed'
  /** A joined node being drained and reconfigured for another operator version (lifecycle/upgrade-flow.ts). */
  | 'Upgrading'
  /** A joined node being drained and rebooted on request (lifecycle/upgrade-flow.ts). */
  | 'Rebooting';

/** One instance's progress, as `wmco status` and `kubectl get cm windows-instances-status` show it. */
export interface InstanceStatus {
  readonly address: string;
  readonly phase: InstancePhase;
  readonly node?: string;
  /** When the current phase began (ISO time). */
  readonly since: string;
  /** Seconds spent in each finished phase of the current attempt. */
  readonly phaseSeconds: Readonly<Partial<Record<InstancePhase, number>>>;
  readonly lastError?: string;
  /** Attempts that failed since the instance was last Ready (kept with `lastError` while it retries). */
  readonly failedAttempts?: number;
  /** When the operator tries again after the failure (ISO time); gone once that attempt starts. */
  readonly nextRetry?: string;
  /**
   * What needs the admin's attention besides the phase (a change the operator ignores, a new private key
   * the host does not accept yet), one per type, each kept until it no longer holds.
   */
  readonly conditions?: readonly InstanceCondition[];
  /** Seconds from the first phase to Ready, for the last successful join. */
  readonly joinSeconds?: number;
  readonly powershellStarts?: number;
  readonly bytesSent?: number;
  /**
   * Where the instance comes from: `byoh` (a `windows-instances` entry), `machine`, or the id of an
   * embedder's own source (absent: written before sources were recorded, a `windows-instances` entry).
   */
  readonly source?: string;
  /** The Machine's name, for a Machine. */
  readonly machine?: string;
  /**
   * Nodes that claim this instance through their own fields (annotation, InternalIP) and that the operator
   * did not join: reported at the instance's join and never acted on (issue 27).
   */
  readonly untrustedNodes?: readonly string[];
}

/** One thing about an instance that needs the admin's attention (`wmco status` lists them). */
export interface InstanceCondition {
  /** `ChangeIgnored` or `PrivateKeyPending`: one condition per type. */
  readonly type: string;
  /** The event reason that reported it. */
  readonly reason: string;
  /** What holds, and the fix. */
  readonly message: string;
  /** When it began to hold (ISO time). */
  readonly since: string;
}

/** Status keys of Machines: `machine.<name>` (BYOH statuses are keyed by IPv4 address). */
export const MACHINE_STATUS_PREFIX = 'machine.';

/** Where instance statuses are kept (ADR 0004: a ConfigMap next to windows-instances). */
export interface InstanceStatusStore {
  get(address: string): InstanceStatus | undefined;
  set(status: InstanceStatus): Promise<void>;
  /** Deletes every status `keep` refuses (also those written by earlier operator runs). */
  retain(keep: (address: string, phase: InstancePhase | undefined) => boolean): Promise<void>;
  remove(address: string): Promise<void>;
}

/** The seconds spent per phase, with the phase being left (if any) closed at `now`. */
function closedTimings(
  previous: InstanceStatus | undefined,
  phase: InstancePhase,
  now: Date,
): Partial<Record<InstancePhase, number>> {
  const phaseSeconds = { ...(previous?.phaseSeconds ?? {}) };
  if (!previous || previous.phase === phase) return phaseSeconds;
  const spent = (now.getTime() - Date.parse(previous.since)) / 1000;
  phaseSeconds[previous.phase] = Math.round(((phaseSeconds[previous.phase] ?? 0) + spent) * 1000) / 1000;
  return phaseSeconds;
}

/**
 * The last error and the count of failed attempts carried into `phase`: they stay while the instance
 * retries (an admin reading `Connecting` must see why the attempt before failed), a new failure counts
 * one more, and success or removal clears both.
 */
function carriedFailure(
  previous: InstanceStatus | undefined,
  phase: InstancePhase,
): Pick<InstanceStatus, 'lastError' | 'failedAttempts'> {
  if (FAILURE_CLEARED.has(phase)) return {};
  const attempts = previous?.failedAttempts ?? 0;
  const failing = phase === 'Failed' && previous?.phase !== 'Failed';
  return withoutUndefined({
    lastError: previous?.lastError,
    failedAttempts: failing ? attempts + 1 : previous?.failedAttempts,
  });
}

/** Moves an instance to `phase`, closing the timing of the phase it leaves. */
export function enterPhase(
  previous: InstanceStatus | undefined,
  change: { address: string; phase: InstancePhase; now: Date; extra?: Partial<InstanceStatus> },
): InstanceStatus {
  const { address, phase, now, extra = {} } = change;
  const phaseSeconds = closedTimings(previous, phase, now);
  const since = previous?.phase === phase ? previous.since : now.toISOString();
  const {
    lastError: _error,
    failedAttempts: _attempts,
    nextRetry: _retry,
    ...rest
  } = previous ?? { address, phase, since, phaseSeconds };
  const failure = carriedFailure(previous, phase);
  return withoutUndefined({ ...rest, ...failure, address, phase, since, phaseSeconds, ...extra });
}

/** Phases that end a run of failures. */
const FAILURE_CLEARED: ReadonlySet<InstancePhase> = new Set(['Ready', 'Removed']);

function withoutUndefined<T>(s: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as unknown as T;
}

export { ConfigMapStatusStore } from './configmap-status-store.js';

/** Keeps statuses in memory only; for tests and embedders. */
export class MemoryStatusStore implements InstanceStatusStore {
  readonly statuses = new Map<string, InstanceStatus>();
  readonly history: InstanceStatus[] = [];

  get(address: string): InstanceStatus | undefined {
    return this.statuses.get(address);
  }

  set(status: InstanceStatus): Promise<void> {
    this.statuses.set(status.address, status);
    this.history.push(status);
    return Promise.resolve();
  }

  remove(address: string): Promise<void> {
    this.statuses.delete(address);
    return Promise.resolve();
  }

  retain(keep: (address: string, phase: InstancePhase | undefined) => boolean): Promise<void> {
    for (const [address, status] of this.statuses)
      if (!keep(address, status.phase)) this.statuses.delete(address);
    return Promise.resolve();
  }
}
