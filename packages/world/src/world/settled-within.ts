/** How a promise ended within a deadline: its value, its error, or 'late' (it is still running). */
export type Settled<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown } | 'late';

/**
 * `p`'s outcome if it settles within `ms`, else 'late'. A late promise keeps running, left behind; its
 * rejection is handled, so it never surfaces as unhandled.
 */
export async function settledWithin<T>(p: Promise<T>, ms: number): Promise<Settled<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const outcome = p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  try {
    return await Promise.race([outcome, late]);
  } finally {
    clearTimeout(timer);
  }
}
