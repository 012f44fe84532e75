import type { JsonObject } from './json.js';
import { errors } from './status.js';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change. `prev` is the state before (MODIFIED and DELETED). */
export interface StoreEvent {
  readonly type: EventType;
  readonly rv: number;
  readonly typeKey: string;
  readonly object: JsonObject;
  readonly prev?: JsonObject;
}

/**
 * The change history a watch replays from, as the apiserver's watch cache does. Bounded: it keeps at least
 * `capacity` events and drops the oldest a tenth of `capacity` at a time (one copy of the array per
 * `capacity / 10` events rather than per event, which at 400 writes a second was a tenth of the
 * process's time); the real watch cache's size is not exact either (it resizes to keep about 75 s). `compact()`
 * (the test hook standing in for `etcdctl compact`) forgets everything up to now, so older
 * resourceVersions get 410 Expired.
 */
export class EventLog {
  private events: StoreEvent[] = [];
  /** Every resourceVersion <= this is gone. */
  private compactedRv = 0;

  constructor(private readonly capacity = 20_000) {}

  /** Events remembered now. */
  get size(): number {
    return this.events.length;
  }

  append(e: StoreEvent): void {
    this.events.push(e);
    if (this.events.length > this.capacity + Math.ceil(this.capacity / 10)) {
      const dropped = this.events.splice(0, this.events.length - this.capacity);
      this.compactedRv = dropped[dropped.length - 1]?.rv ?? this.compactedRv;
    }
  }

  compact(upTo: number): void {
    this.compactedRv = Math.max(this.compactedRv, upTo);
    this.events = this.events.filter((e) => e.rv > upTo);
  }

  get oldestValid(): number {
    return this.compactedRv;
  }

  /** Throws 410 Expired when `rv` is older than the log remembers. */
  assertFresh(rv: number): void {
    if (rv < this.compactedRv) {
      throw errors.expired(`too old resource version: ${rv} (${this.compactedRv + 1})`);
    }
  }

  /** Events after `rv` for one type, oldest first. */
  since(rv: number, typeKey: string): StoreEvent[] {
    this.assertFresh(rv);
    return this.events.filter((e) => e.rv > rv && e.typeKey === typeKey);
  }
}
