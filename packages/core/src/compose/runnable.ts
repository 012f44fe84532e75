/**
 * One part of the running controllers that an embedding process starts and stops: an informer set with
 * its reconcilers, the shared lifecycle, a set of watches. `start` resolves once the part runs (for a
 * source: once its informers synced and its reconcilers started); `stop` resolves once its in-flight
 * work ended. A part runs once: after `stop` it does not start again (a lost leadership term ends the
 * process, as `wmco run` does).
 */
export interface Runnable {
  /** A short name for logs (`byoh`, `machines`, `node-maintenance`, ...). */
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Whether its informers synced (readiness); a part without informers is synced once started. */
  readonly synced: boolean;
}
