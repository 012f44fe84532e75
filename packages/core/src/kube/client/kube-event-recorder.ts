import { PatchStrategy, setHeaderOptions, type CoreV1Api, type CoreV1Event } from '@kubernetes/client-node';
import { describeApiError } from './api-errors.js';
import { BoundedRecentMap, type EventRecorder, type EventType, type ObjectRef } from '../event-recorder.js';
import { printableText } from '../printable-text.js';
import { silentLogger, type Logger } from '../logger.js';
import { lookUpUid } from './object-uid.js';

/**
 * Events about cluster-scoped objects (Nodes, Namespaces, CSRs) live in `default`: the API server refuses
 * (422, `involvedObject.namespace: does not match event.namespace`) a core/v1 Event whose involved object
 * has no namespace unless the event is in `default` (Kubernetes' event validation), and `kubectl describe
 * node` looks there.
 */
export const CLUSTER_SCOPED_EVENT_NAMESPACE = 'default';

export interface KubeEventRecorderOptions {
  readonly component: string;
  /** Removes secrets from messages (the operator's redactor). */
  readonly scrub: (text: string) => string;
  readonly logger?: Logger;
  readonly now?: () => Date;
  /** How many distinct events are remembered for aggregation (default 4096, least recently used first out). */
  readonly dedupLimit?: number;
}

/**
 * core/v1 Events, aggregated like client-go's recorder: the same object, reason and message within a
 * process bump `count` and `lastTimestamp` on one Event instead of creating another. A reference without
 * a uid gets the object's current uid (a ConfigMap or a Node), so `kubectl describe` lists the event.
 */
export class KubeEventRecorder implements EventRecorder {
  private readonly seen: BoundedRecentMap<{ name: string; namespace: string; count: number }>;
  private sequence = 0;

  constructor(
    private readonly api: CoreV1Api,
    private readonly options: KubeEventRecorderOptions,
  ) {
    this.seen = new BoundedRecentMap(options.dedupLimit ?? 4096);
  }

  async record(ref: ObjectRef, type: EventType, reason: string, message: string): Promise<void> {
    const uid = await lookUpUid(this.api, ref);
    const object = uid === undefined ? ref : { ...ref, uid };
    // Messages quote hosts and errors: redacted, one line, no control or ANSI characters, bounded.
    const text = printableText(this.options.scrub(message), 1024);
    const namespace = object.namespace ?? CLUSTER_SCOPED_EVENT_NAMESPACE;
    const key = `${object.kind}/${namespace}/${object.name}/${object.uid ?? ''}/${type}/${reason}/${text}`;
    const now = (this.options.now ?? (() => new Date()))();
    try {
      const previous = this.seen.get(key);
      if (previous) {
        previous.count++;
        await this.api.patchNamespacedEvent(
          {
            name: previous.name,
            namespace: previous.namespace,
            body: { count: previous.count, lastTimestamp: now },
          },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        );
        return;
      }
      const name = `${object.name}.${now.getTime().toString(16)}${(this.sequence++).toString(16)}`;
      await this.api.createNamespacedEvent({
        namespace,
        body: this.event(object, { namespace, name, type, reason, message: text, now }),
      });
      this.seen.set(key, { name, namespace, count: 1 });
    } catch (err) {
      this.seen.delete(key);
      (this.options.logger ?? silentLogger).warn(
        { reason, err: describeApiError(err) },
        'cannot record event',
      );
    }
  }

  private event(
    object: ObjectRef,
    e: { namespace: string; name: string; type: EventType; reason: string; message: string; now: Date },
  ): CoreV1Event {
    const { namespace, name, type, reason, message, now } = e;
    return {
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: object.apiVersion,
        kind: object.kind,
        name: object.name,
        ...(object.namespace === undefined ? {} : { namespace: object.namespace }),
        ...(object.uid === undefined ? {} : { uid: object.uid }),
      },
      type,
      reason,
      message,
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      source: { component: this.options.component },
      reportingComponent: this.options.component,
    };
  }
}
