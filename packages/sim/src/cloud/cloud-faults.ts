/** What a simulated cloud can be told to do wrong. */
export type CloudFaultKind = 'throttle' | 'unauthorized' | 'not-found' | 'server-error';

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

  count(operation: string): number {
    return this.calls.filter((c) => c === operation).length;
  }
}
