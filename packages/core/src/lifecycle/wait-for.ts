import type { Clock, TimerHandle } from '../kube/clock.js';

export interface WaitForOptions<T> {
  readonly timeoutMs: number;
  /** How often `probe` runs again when nothing was offered (with `changes`: the safety net only). */
  readonly pollMs: number;
  readonly signal: AbortSignal;
  /** Named in the timeout and stop errors. */
  readonly what: string;
  /**
   * A change feed (a watch): it calls `offer` with a value as soon as something changed; the first
   * defined value ends the wait at once, without waiting for the next poll. Returns its unsubscribe.
   */
  readonly changes?: (offer: (value: T | undefined) => void) => () => void;
  /** Default: the process clock, with timers that keep the process alive while something waits. */
  readonly clock?: Clock;
}

const processClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => ({ id: setTimeout(fn, Math.max(0, ms)) }),
  clearTimeout: (h) => clearTimeout(h.id as NodeJS.Timeout),
};

/**
 * Resolves with the first defined value of `probe` (run at once, then every `pollMs`) or of the
 * `changes` feed (subscribed before the first probe, so no change between them is lost). Rejects when
 * `probe` throws, the timeout passes (an error naming `what`) or `signal` aborts.
 */
export function waitFor<T>(probe: () => Promise<T | undefined>, o: WaitForOptions<T>): Promise<T> {
  const clock = o.clock ?? processClock;
  const deadline = clock.now() + o.timeoutMs;
  return new Promise<T>((resolve, reject) => {
    let done = false;
    let timer: TimerHandle | undefined;
    const subscription: { unsubscribe?: () => void } = {};
    const end = (settle: () => void): void => {
      if (done) return;
      done = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      subscription.unsubscribe?.();
      o.signal.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = (): void => end(() => reject(new Error(`stopped while waiting for ${o.what}`)));
    const offer = (value: T | undefined): void => {
      if (value !== undefined) end(() => resolve(value));
    };
    const attempt = async (): Promise<void> => {
      timer = undefined;
      const value = await probe();
      if (done) return;
      if (value !== undefined) return offer(value);
      if (clock.now() >= deadline) {
        const seconds = Math.round(o.timeoutMs / 1000);
        return end(() => reject(new Error(`timed out after ${seconds}s waiting for ${o.what}`)));
      }
      timer = clock.setTimeout(() => void attempt().catch(fail), o.pollMs);
    };
    const fail = (err: unknown): void =>
      end(() => reject(err instanceof Error ? err : new Error(String(err))));
    if (o.signal.aborted) return onAbort();
    o.signal.addEventListener('abort', onAbort, { once: true });
    const unsubscribe = o.changes?.(offer);
    if (done) return unsubscribe?.(); // offered at once, while subscribing
    if (unsubscribe) subscription.unsubscribe = unsubscribe;
    void attempt().catch(fail);
  });
}
