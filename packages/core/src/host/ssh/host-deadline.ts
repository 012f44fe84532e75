/** How long one host request may take, and what ends it sooner. */
export interface HostDeadline {
  readonly ms: number;
  /** Abandons the request at once (the operator is stopping, or the work is no longer wanted). */
  readonly signal?: AbortSignal | undefined;
  /** The error for a request that got no answer within `ms`. */
  readonly timeout: () => Error;
  /** The error for a request abandoned through `signal`. */
  readonly abandoned: () => Error;
  /** Runs once when the request is given up either way: closes what may be wedged (the connection). */
  readonly giveUp?: () => void;
}

/**
 * Settles as `work` does, unless `d.ms` pass first or `d.signal` aborts: then it rejects at once and
 * calls `giveUp`. What `work` does later is ignored (it is expected to fail once the connection closes).
 */
export function withDeadline<T>(work: Promise<T>, d: HostDeadline): Promise<T> {
  if (d.signal?.aborted) {
    work.catch(() => undefined);
    d.giveUp?.();
    return Promise.reject(d.abandoned());
  }
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      d.signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const giveUp = (err: Error): void => {
      if (!finish()) return;
      d.giveUp?.();
      reject(err);
    };
    const onAbort = (): void => giveUp(d.abandoned());
    const timer = setTimeout(() => giveUp(d.timeout()), d.ms);
    d.signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => finish() && resolve(value),
      (err: unknown) => finish() && reject(err instanceof Error ? err : new Error(String(err))),
    );
  });
}
