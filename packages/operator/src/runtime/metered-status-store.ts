import type { InstancePhase, InstanceStatus, InstanceStatusStore } from '@wmco/core/internal';

/**
 * An `InstanceStatusStore` that reports, each time an instance leaves a phase, the seconds it spent
 * there (the same time `enterPhase` adds to `phaseSeconds`, so `wmco status` and the histogram agree).
 */
export class MeteredStatusStore implements InstanceStatusStore {
  constructor(
    private readonly inner: InstanceStatusStore,
    private readonly phaseDone: (phase: InstancePhase, seconds: number) => void,
    /** Told each instance's current phase, `undefined` once its status is deleted (the per-phase gauge). */
    private readonly phaseNow: (address: string, phase: InstancePhase | undefined) => void = () => undefined,
  ) {}

  get(address: string): InstanceStatus | undefined {
    return this.inner.get(address);
  }

  async set(status: InstanceStatus): Promise<void> {
    const before = this.inner.get(status.address);
    await this.inner.set(status);
    this.phaseNow(status.address, status.phase);
    if (!before || before.phase === status.phase) return;
    const spent = (status.phaseSeconds[before.phase] ?? 0) - (before.phaseSeconds[before.phase] ?? 0);
    if (spent >= 0) this.phaseDone(before.phase, spent);
  }

  retain(keep: (address: string, phase: InstancePhase | undefined) => boolean): Promise<void> {
    return this.inner.retain((address, phase) => {
      const kept = keep(address, phase);
      this.phaseNow(address, kept ? phase : undefined);
      return kept;
    });
  }

  async remove(address: string): Promise<void> {
    await this.inner.remove(address);
    this.phaseNow(address, undefined);
  }
}
