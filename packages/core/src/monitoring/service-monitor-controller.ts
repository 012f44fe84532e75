import { isDeepStrictEqual } from 'node:util';
import type { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import type { Clock } from '../kube/clock.js';
import { describeApiError, isNotFound } from '../kube/client/api-errors.js';
import type { EventRecorder } from '../kube/event-recorder.js';
import type { Logger } from '../kube/logger.js';
import { SupervisedInformer } from '../kube/supervised-informer.js';
import type { KubeList, KubeObject, WatchPort } from '../kube/watch-port.js';
import {
  CLUSTER_MONITORING_LABEL,
  MONITORING_GROUP,
  SERVICE_MONITOR_NAME,
  windowsExporterServiceMonitor,
} from './windows-exporter-service-monitor.js';

export interface ServiceMonitorControllerOptions {
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  readonly watch: WatchPort;
  readonly clock: Clock;
  readonly namespace: string;
  readonly events: EventRecorder;
  readonly logger: Logger;
}

type Labelled = KubeObject & { metadata?: { labels?: Record<string, string>; uid?: string } };
const SM = { group: MONITORING_GROUP, version: 'v1', plural: 'servicemonitors' } as const;

/**
 * Keeps the `windows-exporter` ServiceMonitor (reference §1.16) exactly while the operator's namespace has
 * `openshift.io/cluster-monitoring=true`: created (or put back after a delete, or after an edit) when the
 * label is there, deleted when it goes. Each transition is an event on the Namespace: `ServiceMonitorCreated`
 * (Normal), `ServiceMonitorDeleted` (Warning: Windows node metrics are no longer collected), and
 * `ServiceMonitorFailed` (Warning, e.g. the cluster has no monitoring.coreos.com API). Watches the
 * Namespace and the ServiceMonitor by name; every change runs one pass, passes never overlap.
 */
export class ServiceMonitorController {
  private readonly informers: SupervisedInformer<Labelled>[];
  private readonly ns: SupervisedInformer<Labelled>;
  private running: Promise<void> = Promise.resolve();
  private again = false;
  private stopped = true;
  private lastFailure = '';

  constructor(private readonly o: ServiceMonitorControllerOptions) {
    const common = { watch: o.watch, clock: o.clock, logger: o.logger };
    this.ns = new SupervisedInformer<Labelled>({
      ...common,
      name: 'operator-namespace',
      path: '/api/v1/namespaces',
      fieldSelector: `metadata.name=${o.namespace}`,
      list: (sel) => o.core.listNamespace(sel),
    });
    const monitors = new SupervisedInformer<Labelled>({
      ...common,
      name: 'windows-exporter-servicemonitor',
      path: `/apis/${SM.group}/${SM.version}/namespaces/${o.namespace}/${SM.plural}`,
      fieldSelector: `metadata.name=${SERVICE_MONITOR_NAME}`,
      list: (sel) =>
        o.custom.listNamespacedCustomObject({ ...SM, namespace: o.namespace, ...sel }) as Promise<
          KubeList<Labelled>
        >,
    });
    this.informers = [this.ns, monitors];
    for (const i of this.informers)
      for (const ev of ['add', 'update', 'delete'] as const) i.on(ev, () => this.kick());
  }

  /** The first pass runs once the Namespace is listed (the ServiceMonitor watch only reports deletes and edits). */
  start(): void {
    this.stopped = false;
    void this.ns.start().then(() => this.kick());
    for (const i of this.informers.slice(1)) void i.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const i of this.informers) i.stop();
    await this.running;
  }

  /** One pass now, or one more after the pass in flight. */
  private kick(): void {
    if (this.stopped || !this.ns.synced) return;
    this.again = true;
    this.running = this.running.then(async () => {
      if (!this.again || this.stopped) return;
      this.again = false;
      await this.pass().catch((err: unknown) => this.failed(err));
    });
  }

  private namespaceObject(): Labelled | undefined {
    return this.ns.list().find((n) => n.metadata?.name === this.o.namespace);
  }

  /** Makes the cluster match the label; public for tests. */
  async pass(): Promise<void> {
    const ns = this.namespaceObject();
    const wanted = ns?.metadata?.labels?.[CLUSTER_MONITORING_LABEL] === 'true';
    const current = await this.read();
    if (wanted) await this.ensure(current);
    else if (current) await this.remove();
    this.lastFailure = '';
  }

  private async read(): Promise<Record<string, unknown> | undefined> {
    try {
      return (await this.o.custom.getNamespacedCustomObject({
        ...SM,
        namespace: this.o.namespace,
        name: SERVICE_MONITOR_NAME,
      })) as Record<string, unknown>;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async ensure(current: Record<string, unknown> | undefined): Promise<void> {
    const desired = windowsExporterServiceMonitor(this.o.namespace);
    if (!current) {
      await this.o.custom.createNamespacedCustomObject({ ...SM, namespace: this.o.namespace, body: desired });
      await this.event(
        'Normal',
        'ServiceMonitorCreated',
        `Created ServiceMonitor ${this.where()}: the namespace has ${CLUSTER_MONITORING_LABEL}=true, Windows node metrics are collected`,
      );
      return;
    }
    // Key order is not compared: the API server returns a custom resource's keys sorted.
    if (isDeepStrictEqual(current['spec'], desired['spec'])) return;
    const metadata = {
      ...(current['metadata'] as Record<string, unknown>),
      labels: { name: SERVICE_MONITOR_NAME },
    };
    await this.o.custom.replaceNamespacedCustomObject({
      ...SM,
      namespace: this.o.namespace,
      name: SERVICE_MONITOR_NAME,
      body: { ...desired, metadata },
    });
    await this.event(
      'Normal',
      'ServiceMonitorUpdated',
      `Put ServiceMonitor ${this.where()} back to the operator's definition`,
    );
  }

  private async remove(): Promise<void> {
    try {
      await this.o.custom.deleteNamespacedCustomObject({
        ...SM,
        namespace: this.o.namespace,
        name: SERVICE_MONITOR_NAME,
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      return;
    }
    await this.event(
      'Warning',
      'ServiceMonitorDeleted',
      `Deleted ServiceMonitor ${this.where()}: the namespace no longer has ${CLUSTER_MONITORING_LABEL}=true, Windows node metrics are not collected`,
    );
  }

  private async failed(err: unknown): Promise<void> {
    const message = `Cannot keep ServiceMonitor ${this.where()}: ${describeApiError(err)}`;
    this.o.logger.warn({ err: describeApiError(err) }, 'cannot keep the windows-exporter ServiceMonitor');
    if (message === this.lastFailure) return;
    this.lastFailure = message;
    await this.event('Warning', 'ServiceMonitorFailed', message);
  }

  private where(): string {
    return `${this.o.namespace}/${SERVICE_MONITOR_NAME}`;
  }

  private event(type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const uid = this.namespaceObject()?.metadata?.uid;
    this.o.logger.info({ reason }, message);
    return this.o.events.record(
      { apiVersion: 'v1', kind: 'Namespace', name: this.o.namespace, ...(uid ? { uid } : {}) },
      type,
      reason,
      message,
    );
  }
}
