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
 * The change history a watch replays from, as the apiserver's watch cache does. Bounded; `compact()`
 * (the test hook standing in for `etcdctl compact`) forgets everything up to now, so older
 * resourceVersions get 410 Expired.
 */
export class EventLog {
  private events: StoreEvent[] = [];
  /** Every resourceVersion <= this is gone. */
  private compactedRv = 0;

  constructor(private readonly capacity = 20_000) {}

  append(e: StoreEvent): void {
    this.events.push(e);
    if (this.events.length > this.capacity) {
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
