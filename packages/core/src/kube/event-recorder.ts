/** The object an event is about. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
}

export type EventType = 'Normal' | 'Warning';

/**
 * Records Kubernetes events, the way cluster admins see what the operator does (`kubectl get events`,
 * `kubectl describe`). Implementations never throw: an event that cannot be written is logged, not fatal.
 */
export interface EventRecorder {
  record(object: ObjectRef, type: EventType, reason: string, message: string): Promise<void>;
}

export interface RecordedEvent {
  readonly object: ObjectRef;
  readonly type: EventType;
  readonly reason: string;
  readonly message: string;
}

/** Keeps events in memory; for tests and for embedders that do not want events. */
export class MemoryEventRecorder implements EventRecorder {
  readonly events: RecordedEvent[] = [];

  record(object: ObjectRef, type: EventType, reason: string, message: string): Promise<void> {
    this.events.push({ object, type, reason, message });
    return Promise.resolve();
  }
}

/**
 * A map that keeps at most `max` entries, dropping the least recently used: the de-duplication memory of
 * an event recorder, which would otherwise grow with every distinct message for as long as the process
 * runs. A dropped key only means the next identical event is created again instead of counted.
 */
export class BoundedRecentMap<V> {
  private readonly entries = new Map<string, V>();

  constructor(readonly max = 4096) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`max must be a positive integer, got ${max}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, marked as the most recently used. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
