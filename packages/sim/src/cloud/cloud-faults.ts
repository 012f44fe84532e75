/**
 * What a simulated cloud can be told to do wrong. `hang` accepts the request and never answers, as an
 * endpoint behind a black-holed route or a stuck proxy does; the connection stays open until the client
 * gives up or the simulated cloud closes.
 */
export type CloudFaultKind = 'throttle' | 'unauthorized' | 'not-found' | 'server-error' | 'hang';

/** The faults a simulated cloud answers with an error of its own API. */
export type CloudErrorFault = Exclude<CloudFaultKind, 'hang'>;

/** Thrown while dispatching a request that a `hang` fault took: the handler leaves it unanswered. */
export class NoAnswer extends Error {
  constructor(operation: string) {
    super(`simulated cloud: ${operation} is never answered (hang fault)`);
  }
}

interface PendingFault {
  readonly kind: CloudFaultKind;
  readonly operation: string | undefined;
  remaining: number;
}

/**
 * Injected cloud faults: each answers the next `times` matching calls (by operation name, or any), then
 * goes away. Faults are consumed in the order they were added. Every call is also logged, so tests can
 * count retries.
 */
export class CloudFaults {
  private readonly pending: PendingFault[] = [];
  readonly calls: string[] = [];

  inject(kind: CloudFaultKind, options: { times?: number; operation?: string } = {}): void {
    this.pending.push({ kind, operation: options.operation, remaining: options.times ?? 1 });
  }

  clear(): void {
    this.pending.length = 0;
  }

  /** Records the call and returns the fault to answer it with, if one is pending. */
  take(operation: string): CloudFaultKind | undefined {
    this.calls.push(operation);
    const fault = this.pending.find((f) => f.operation === undefined || f.operation === operation);
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.pending.splice(this.pending.indexOf(fault), 1);
    return fault.kind;
  }

  /**
   * Records the call and throws what a pending fault makes of it: `NoAnswer` for a hang, else the error
   * `errors` gives for its kind (the simulated cloud's own API error).
   */
  raise(operation: string, errors: Readonly<Record<CloudErrorFault, (operation: string) => Error>>): void {
    const fault = this.take(operation);
    if (fault === 'hang') throw new NoAnswer(operation);
    if (fault) throw errors[fault](operation);
  }

  count(operation: string): number {
    return this.calls.filter((c) => c === operation).length;
  }
}
