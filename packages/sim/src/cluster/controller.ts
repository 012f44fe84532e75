import type { StoreEvent } from '../apiserver/event-log.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';

/** Where controllers report failures (they never throw into the store). */
export type ErrorSink = (controller: string, error: unknown) => void;

/** A controller running in-process against the simulated store. */
export interface SimController {
  readonly name: string;
  start(): void;
  stop(): void;
}

/**
 * Runs `handle` for store events after the current commit finished (setImmediate), so controllers never
 * write from inside another write, and reports errors instead of throwing.
 */
export function eventLoop(
  writer: ObjectWriter,
  name: string,
  onError: ErrorSink,
  handle: (e: StoreEvent) => void | Promise<void>,
): { start(): void; stop(): void } {
  let unsubscribe: (() => void) | undefined;
  let stopped = false;
  const run = (e: StoreEvent): void => {
    setImmediate(() => {
      if (stopped) return;
      Promise.resolve()
        .then(() => handle(e))
        .catch((err: unknown) => onError(name, err));
    });
  };
  return {
    start(): void {
      stopped = false;
      unsubscribe ??= writer.store.subscribe(run);
    },
    stop(): void {
      stopped = true;
      unsubscribe?.();
      unsubscribe = undefined;
    },
  };
}

/** A controller driven by store events: subclasses name themselves and handle each event. */
export abstract class StoreEventController implements SimController {
  abstract readonly name: string;
  private loop: { start(): void; stop(): void } | undefined;

  constructor(
    protected readonly writer: ObjectWriter,
    private readonly onError: ErrorSink,
  ) {}

  start(): void {
    this.loop ??= eventLoop(this.writer, this.name, this.onError, (e) => this.handle(e));
    this.loop.start();
  }

  stop(): void {
    this.loop?.stop();
  }

  protected abstract handle(e: StoreEvent): void | Promise<void>;
}
