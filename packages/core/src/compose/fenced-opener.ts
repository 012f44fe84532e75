import type { Plan } from '../converge/plan.js';
import type { HostState } from '../host/protocol/index.js';
import type {
  ApplyOptions,
  ChangeOutcome,
  DeconfigureOptions,
  ObserveQuery,
  UploadFile,
  UploadReport,
  WindowsHost,
} from '../host/windows-host.js';
import type { HostTarget } from '../lifecycle/join-deps.js';

/** A host step refused because this operator no longer leads (or is stopping). */
export class LeadershipEndedError extends Error {
  constructor(address: string, op: string) {
    super(`${op} on ${address} not started: this operator no longer leads (or is stopping)`);
    this.name = 'LeadershipEndedError';
  }
}

/**
 * The safe point of a lost Lease (issue 28): once `fence` aborts, no new host step starts (an open, an
 * observe, an upload, an apply, a reboot, a deconfigure is refused before it sends anything), and the step
 * in flight is aborted through its connection's signal, which every host request honours.
 *
 * Why an aborted step leaves nothing the next leader cannot repair: an upload writes each file under a
 * temporary name and renames it only when whole (host/ssh/ssh-session.ts), and apply re-hashes what it finds; the
 * host module's apply converges the host to a plan from what it observes (ADR 0004: observe, upload,
 * apply). A step cut short is an apply that did part of its work: the next leader's observe sees that
 * part and its apply does the rest.
 */
export function fencedOpener(
  open: (target: HostTarget) => WindowsHost,
  fence: AbortSignal,
): (target: HostTarget) => WindowsHost {
  return (target) => {
    if (fence.aborted) throw new LeadershipEndedError(target.address, 'connect');
    const signal = target.signal ? AbortSignal.any([target.signal, fence]) : fence;
    return new FencedWindowsHost(open({ ...target, signal }), fence);
  };
}

/** A `WindowsHost` whose every step first checks the fence; behaviour is otherwise the inner host's. */
export class FencedWindowsHost implements WindowsHost {
  constructor(
    private readonly inner: WindowsHost,
    private readonly fence: AbortSignal,
  ) {}

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
    if (this.fence.aborted) return Promise.reject(new LeadershipEndedError(this.inner.address, op));
    return call();
  }
}
