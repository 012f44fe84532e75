import type { Clock, TimerHandle } from './clock.js';

/** A manual clock for tests: time moves only when `advance` is called, firing due timers in order. */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = 1_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { at: this.current + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle.id as number);
  }

  /** Moves time forward by `ms`, running every timer that falls due, earliest first. */
  advance(ms: number): void {
    const end = this.current + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      // A timer that fell due during a `stall` runs late, at the current time.
      this.current = Math.max(this.current, due[1].at);
      due[1].fn();
    }
    this.current = end;
  }

  /**
   * Moves time forward by `ms` without running any timer, as in a process that did not run (a busy
   * machine, a long synchronous task): the timers that fell due meanwhile run late, at the next `advance`.
   */
  stall(ms: number): void {
    this.current += ms;
  }

  get pendingTimers(): number {
    return this.timers.size;
  }
}
