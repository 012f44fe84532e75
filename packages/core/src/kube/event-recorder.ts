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
