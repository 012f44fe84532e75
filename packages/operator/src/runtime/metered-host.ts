import type {
  ApplyOptions,
  ChangeOutcome,
  DeconfigureOptions,
  HostState,
  ObserveQuery,
  Plan,
  UploadFile,
  UploadReport,
  WindowsHost,
} from '@wmco/core';

/** What the SSH adapter counts across its connections (`SshWindowsHost.stats`). */
export interface HostCounters {
  readonly powershellStarts: number;
  readonly bytesSent: number;
}

/** Where a metered host reports: one call per operation and the growth of its counters. */
export interface HostMeter {
  operation(op: string, result: 'success' | 'error'): void;
  powershellStarts(n: number): void;
  bytesSent(n: number): void;
}

/**
 * A `WindowsHost` that reports each operation (observe, upload, apply, reboot, deconfigure) with its
 * result, and the PowerShell starts and bytes the adapter counted while it ran (module uploads and
 * host preparation included), to the operator's metrics. Behaviour is the inner host's.
 */
export class MeteredWindowsHost implements WindowsHost {
  private seen: HostCounters = { powershellStarts: 0, bytesSent: 0 };

  constructor(
    private readonly inner: WindowsHost,
    private readonly meter: HostMeter,
  ) {}

  get address(): string {
    return this.inner.address;
  }

  get stats(): HostCounters | undefined {
    return this.inner.stats;
  }

  observe(query: ObserveQuery): Promise<HostState> {
    return this.metered('observe', () => this.inner.observe(query));
  }

  upload(files: readonly UploadFile[]): Promise<UploadReport> {
    return this.metered('upload', () => this.inner.upload(files));
  }

  apply(plan: Plan, options?: ApplyOptions): Promise<ChangeOutcome> {
    return this.metered('apply', () => this.inner.apply(plan, options));
  }

  reboot(): Promise<void> {
    return this.metered('reboot', () => this.inner.reboot());
  }

  deconfigure(options: DeconfigureOptions): Promise<ChangeOutcome> {
    return this.metered('deconfigure', () => this.inner.deconfigure(options));
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async metered<T>(op: string, call: () => Promise<T>): Promise<T> {
    try {
      const out = await call();
      this.meter.operation(op, 'success');
      return out;
    } catch (err) {
      this.meter.operation(op, 'error');
      throw err;
    } finally {
      this.countersGrew();
    }
  }

  private countersGrew(): void {
    const now = this.inner.stats;
    if (!now) return;
    const starts = now.powershellStarts - this.seen.powershellStarts;
    const bytes = now.bytesSent - this.seen.bytesSent;
    if (starts > 0) this.meter.powershellStarts(starts);
    if (bytes > 0) this.meter.bytesSent(bytes);
    this.seen = { powershellStarts: now.powershellStarts, bytesSent: now.bytesSent };
  }
}
