import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ByohControllersOptions, InstancePhase } from '@wmco/core/internal';
import type { ControllerMetrics, WorkQueueMetrics } from '@wmco/core';
import type { HostMeter } from './metered-host.js';

/** The operator's Prometheus metrics, in a registry of its own (never prom-client's global one). */
export class OperatorMetrics {
  readonly registry = new Registry();
  readonly reconciles = new Counter({
    name: 'wmco_reconcile_total',
    help: 'Reconciles by controller and result (success, requeue, error)',
    labelNames: ['controller', 'result'] as const,
    registers: [this.registry],
  });
  readonly reconcileDuration = new Histogram({
    name: 'wmco_reconcile_duration_seconds',
    help: 'Reconcile duration by controller',
    labelNames: ['controller'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: 'wmco_workqueue_depth',
    help: 'Keys waiting in a work queue',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });
  readonly queueAdds = new Counter({
    name: 'wmco_workqueue_adds_total',
    help: 'Keys added',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });
  readonly queueRetries = new Counter({
    name: 'wmco_workqueue_retries_total',
    help: 'Rate-limited re-adds',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });
  readonly joinPhase = new Histogram({
    name: 'wmco_join_phase_duration_seconds',
    help: 'Time spent in each phase of joining a Windows instance',
    labelNames: ['phase'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600],
    registers: [this.registry],
  });
  readonly sshOperations = new Counter({
    name: 'wmco_ssh_operations_total',
    help: 'SSH operations by kind and result',
    labelNames: ['op', 'result'] as const,
    registers: [this.registry],
  });
  readonly powershellStarts = new Counter({
    name: 'wmco_powershell_starts_total',
    help: 'powershell.exe processes started on hosts',
    registers: [this.registry],
  });
  readonly bytesSent = new Counter({
    name: 'wmco_ssh_bytes_sent_total',
    help: 'Bytes uploaded to hosts by SFTP (payload, generated files, the host module)',
    registers: [this.registry],
  });
  readonly csrDecisions = new Counter({
    name: 'wmco_csr_decisions_total',
    help: 'Kubelet CSR decisions (approved, refused)',
    labelNames: ['decision'] as const,
    registers: [this.registry],
  });
  readonly informerRestarts = new Counter({
    name: 'wmco_informer_restarts_total',
    help: 'Informer restarts by informer and reason',
    labelNames: ['informer', 'reason'] as const,
    registers: [this.registry],
  });
  readonly driftChecks = new Counter({
    name: 'wmco_drift_checks_total',
    help: 'Drift checks of Ready nodes by result (clean, repaired, skipped, error)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly leader = new Gauge({
    name: 'wmco_leader',
    help: '1 while this process holds the leader lease',
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'wmco_' });
  }

  queueMetrics(queue: string): WorkQueueMetrics {
    return {
      depth: (n) => this.queueDepth.set({ queue }, n),
      added: () => this.queueAdds.inc({ queue }),
      retried: () => this.queueRetries.inc({ queue }),
    };
  }

  /** What the BYOH controllers report: drift checks, queues, reconciles, CSR decisions, informer restarts. */
  byohMetrics(): NonNullable<ByohControllersOptions['metrics']> {
    return {
      drift: (result) => this.driftChecks.inc({ result }),
      queue: (q) => this.queueMetrics(q),
      controller: this.controllerMetrics(),
      csr: { decided: (d) => this.csrDecisions.inc({ decision: d }) },
      informerRestart: (informer, reason) => this.informerRestarts.inc({ informer, reason }),
    };
  }

  /** SSH operations, PowerShell starts and bytes sent, from every host the operator opens. */
  hostMeter(): HostMeter {
    return {
      operation: (op, result) => this.sshOperations.inc({ op, result }),
      powershellStarts: (n) => this.powershellStarts.inc(n),
      bytesSent: (n) => this.bytesSent.inc(n),
    };
  }

  /** Seconds an instance spent in a join phase it just left. */
  phaseDone(phase: InstancePhase, seconds: number): void {
    this.joinPhase.observe({ phase }, seconds);
  }

  controllerMetrics(): ControllerMetrics {
    return {
      reconciled: (controller, result, ms) => {
        this.reconciles.inc({ controller, result });
        this.reconcileDuration.observe({ controller }, ms / 1000);
      },
    };
  }
}
