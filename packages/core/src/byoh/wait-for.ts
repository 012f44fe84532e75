/** Polls `probe` until it yields a value, the timeout passes (an error naming `what`) or `signal` aborts. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  o: { timeoutMs: number; pollMs: number; signal: AbortSignal; what: string },
): Promise<T> {
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    if (o.signal.aborted) throw new Error(`stopped while waiting for ${o.what}`);
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${Math.round(o.timeoutMs / 1000)}s waiting for ${o.what}`);
    await new Promise((r) => setTimeout(r, o.pollMs));
  }
}
