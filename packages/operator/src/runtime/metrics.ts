import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ByohControllersOptions, InstancePhase } from '@wmco/core/internal';
import type { ControllerMetrics, WorkQueueMetrics } from '@wmco/core';
import { CONTRACT_VERSION } from '@wmco/core/contract-version';
import type { HostMeter } from './metered-host.js';
import { WMCO_VERSION } from '../cli/wmco-version.js';

/**
 * prom-client's default gauges that end in `_total` (Prometheus keeps that suffix for counters, and
 * `promtool check metrics` refuses them). Their per-type gauges (`wmco_nodejs_active_handles{type}`, ...)
 * stay: `sum()` over them gives the same totals.
 */
const TOTAL_NAMED_GAUGES = [
  'wmco_nodejs_active_handles_total',
  'wmco_nodejs_active_requests_total',
  'wmco_nodejs_active_resources_total',
] as const;

/** Latency buckets of client-go's workqueue metrics (10 µs to 10 s, by factors of ten). */
const WORKQUEUE_BUCKETS = [1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10];

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
  readonly queueLatency = new Histogram({
    name: 'wmco_workqueue_queue_duration_seconds',
    help: 'Seconds a key waited in a work queue before it was handed out',
    labelNames: ['queue'] as const,
    buckets: WORKQUEUE_BUCKETS,
    registers: [this.registry],
  });
  readonly workDuration = new Histogram({
    name: 'wmco_workqueue_work_duration_seconds',
    help: 'Seconds processing a key took, from hand-out to done',
    labelNames: ['queue'] as const,
    buckets: WORKQUEUE_BUCKETS,
    registers: [this.registry],
  });
  private readonly phases = new Map<string, InstancePhase>();
  readonly instances = new Gauge({
    name: 'wmco_instances',
    help: 'Windows instances known to the operator, by phase',
    labelNames: ['phase'] as const,
    registers: [this.registry],
    collect: () => this.countPhases(),
  });
  readonly buildInfo = new Gauge({
    name: 'wmco_build_info',
    help: 'Always 1; the labels name the operator version, the provider contract version and the Node.js runtime',
    labelNames: ['version', 'contract_version', 'node_version'] as const,
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
    if (options.defaultMetrics ?? true) {
      collectDefaultMetrics({ register: this.registry, prefix: 'wmco_' });
      for (const name of TOTAL_NAMED_GAUGES) this.registry.removeSingleMetric(name);
    }
    this.buildInfo.set(
      { version: WMCO_VERSION, contract_version: String(CONTRACT_VERSION), node_version: process.version },
      1,
    );
  }

  /** Records an instance's current phase (`undefined`: the instance is gone). */
  instancePhase(address: string, phase: InstancePhase | undefined): void {
    if (phase === undefined) this.phases.delete(address);
    else this.phases.set(address, phase);
  }

  private countPhases(): void {
    this.instances.reset();
    const counts = new Map<InstancePhase, number>();
    for (const phase of this.phases.values()) counts.set(phase, (counts.get(phase) ?? 0) + 1);
    for (const [phase, n] of counts) this.instances.set({ phase }, n);
  }

  queueMetrics(queue: string): WorkQueueMetrics {
    return {
      depth: (n) => this.queueDepth.set({ queue }, n),
      added: () => this.queueAdds.inc({ queue }),
      retried: () => this.queueRetries.inc({ queue }),
      queueLatencyMs: (ms) => this.queueLatency.observe({ queue }, ms / 1000),
      workDurationMs: (ms) => this.workDuration.observe({ queue }, ms / 1000),
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
