import { GatedWindowsHost } from '../host/gated-windows-host.js';
import type { WindowsHost } from '../host/windows-host.js';
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
export class FencedWindowsHost extends GatedWindowsHost {
  constructor(
    inner: WindowsHost,
    private readonly fence: AbortSignal,
  ) {
    super(inner);
  }

  protected gate(op: string): Promise<void> | undefined {
    return this.fence.aborted ? Promise.reject(new LeadershipEndedError(this.inner.address, op)) : undefined;
  }
}
