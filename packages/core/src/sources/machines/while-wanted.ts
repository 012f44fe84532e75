/** A signal that aborts with `signal`, or once `wanted()` turns false; `dispose` stops the watching. */
export interface WantedSignal {
  readonly signal: AbortSignal;
  /** True once `wanted()` turned false (not when `signal` aborted). */
  readonly unwanted: () => boolean;
  dispose(): void;
}

/**
 * Work for a Machine that a user deletes meanwhile is abandoned at its next step instead of running on
 * (a join would otherwise wait for a Node that never comes, for the whole registration wait): `wanted` is
 * read from the informer's cache every `everyMs`, and its first false aborts the returned signal.
 */
export function whileWanted(wanted: () => boolean, signal: AbortSignal, everyMs = 500): WantedSignal {
  const gone = new AbortController();
  const timer = setInterval(() => {
    if (!wanted()) gone.abort(new Error('the Machine was deleted'));
  }, everyMs);
  return {
    signal: AbortSignal.any([signal, gone.signal]),
    unwanted: () => gone.signal.aborted,
    dispose: () => clearInterval(timer),
  };
}
