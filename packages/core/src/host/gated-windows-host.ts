import type { Plan } from './protocol/index.js';
import type { HostState } from './protocol/index.js';
import type {
  ApplyOptions,
  ChangeOutcome,
  DeconfigureOptions,
  ObserveQuery,
  UploadFile,
  UploadReport,
  WindowsHost,
} from './windows-host.js';

/**
 * A `WindowsHost` that lets each step (observe, upload, apply, reboot, deconfigure) through only once
 * `gate` resolved for it, and otherwise behaves as the host it wraps. `close` is never gated: a refused
 * host must still release what it holds. Subclasses say what the gate checks (an address policy, a
 * leadership fence).
 */
export abstract class GatedWindowsHost implements WindowsHost {
  constructor(protected readonly inner: WindowsHost) {}

  /**
   * Undefined when `op` may go to the host now (it is then called at once, in the caller's turn); else a
   * promise that resolves when it may, or rejects with the reason it may not.
   */
  protected abstract gate(op: string): Promise<void> | undefined;

  get address(): string {
    return this.inner.address;
  }

  get stats(): WindowsHost['stats'] {
    return this.inner.stats;
  }

  observe(query: ObserveQuery): Promise<HostState> {
    return this.step('observe', () => this.inner.observe(query));
  }

  upload(files: readonly UploadFile[]): Promise<UploadReport> {
    return this.step('upload', () => this.inner.upload(files));
  }

  apply(plan: Plan, options?: ApplyOptions): Promise<ChangeOutcome> {
    return this.step('apply', () => this.inner.apply(plan, options));
  }

  reboot(): Promise<void> {
    return this.step('reboot', () => this.inner.reboot());
  }

  deconfigure(options: DeconfigureOptions): Promise<ChangeOutcome> {
    return this.step('deconfigure', () => this.inner.deconfigure(options));
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private step<T>(op: string, call: () => Promise<T>): Promise<T> {
    const waiting = this.gate(op);
    return waiting ? waiting.then(call) : call();
  }
}
