import { Command } from 'commander';
import { configProblems, type OperatorConfig } from '../runtime/operator-config.js';
import { globalLogLevel } from './log-level-option.js';
import { createLogger } from '../runtime/logger.js';
import {
  defaultParallelJoins,
  logConcurrency,
  machineResources,
  type JoinConcurrency,
} from '../runtime/join-concurrency.js';
import { OperatorMetrics } from '../runtime/metrics.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { OperatorRuntime, StartupError } from '../runtime/operator-runtime.js';
import { LeadershipLostError, LOST_LEADERSHIP_STOP_MS } from './leadership-lost-error.js';
import { ProbeServer } from '../runtime/probes.js';
import { CachedMetricsAccess } from '../runtime/cached-metrics-access.js';
import { kubeMetricsAccess } from '../runtime/metrics-access.js';
import { serveMetricsWhenReady } from '../runtime/secure-metrics.js';
import { loadKubeConfig } from '../runtime/load-kubeconfig.js';
import { clusterTlsProfile } from '../runtime/cluster-tls-profile.js';
import type { Logger } from '@wmco/core';
import { Redactor } from '../runtime/redactor.js';
import { loadProviders } from '../providers/load-provider-package.js';
import type { CliContext } from './cli-context.js';
import { collect, providerPackages } from './provider-packages-option.js';
import { hostLimitOptions, hostLimitsFromFlags, type HostLimitFlags } from './host-limit-flags.js';

/** Where the Deployment mounts the metrics serving-cert Secret (deploy/07-deployment.yaml). */
const DEFAULT_METRICS_CERT_DIR = '/etc/wmco/metrics-tls';

interface RunFlags extends HostLimitFlags {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  payload: string;
  /** Unset: from the machine's CPUs and memory (join-concurrency.ts). */
  parallelJoins?: string;
  parallelUploads?: string;
  debugLogging?: boolean;
  /** The global `--log-level` (program.ts); unset: debug with `--debug-logging`, else info. */
  logLevel?: string;
  probeAddress: string;
  metricsAddress?: string;
  metricsCertDir?: string;
  leaderElection: boolean;
  providerPackage?: string[];
  deleteLogsOnRemoval?: boolean;
  driftRepairInterval: string;
  bootstrapGroup?: string;
  registrationTimeout?: string;
  maxUnavailable?: string;
  drainTimeout?: string;
  cloudTagging?: string;
  cloudCredentials?: string;
}

/** Flags first, then the environment (upstream's names: WATCH_NAMESPACE, SERVICES_LOG_*, proxy variables). */
type Env = Readonly<Record<string, string | undefined>>;

function pick(env: Env, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    names.flatMap((k) => (env[k] === undefined || env[k] === '' ? [] : [[k, env[k]]])),
  );
}

function servicesLog(env: Env): OperatorConfig['servicesLog'] {
  const p = pick(env, ['SERVICES_LOG_FILE_SIZE', 'SERVICES_LOG_FILE_AGE', 'SERVICES_LOG_FLUSH_INTERVAL']);
  const out: Record<string, string> = {};
  if (p['SERVICES_LOG_FILE_SIZE']) out['size'] = p['SERVICES_LOG_FILE_SIZE'];
  if (p['SERVICES_LOG_FILE_AGE']) out['age'] = p['SERVICES_LOG_FILE_AGE'];
  if (p['SERVICES_LOG_FLUSH_INTERVAL']) out['flushInterval'] = p['SERVICES_LOG_FLUSH_INTERVAL'];
  return out;
}

function kubeTarget(flags: RunFlags, env: Env): { kubeconfig?: string; context?: string } {
  const kubeconfig = flags.kubeconfig ?? env['KUBECONFIG'];
  return { ...(kubeconfig ? { kubeconfig } : {}), ...(flags.context ? { context: flags.context } : {}) };
}

/** The disruption budget of upgrades and reboots. */
function maintenance(
  flags: RunFlags,
  env: Env,
): { maxUnavailable: string; operatorConditionName?: string; drainForceAfterMs?: number } {
  const condition = env['OPERATOR_CONDITION_NAME'];
  return {
    maxUnavailable: flags.maxUnavailable ?? '1',
    ...(condition ? { operatorConditionName: condition } : {}),
    // Absent: drains wait for PodDisruptionBudgets, as before (ADR 0037).
    ...(flags.drainTimeout !== undefined ? { drainForceAfterMs: Number(flags.drainTimeout) * 1000 } : {}),
  };
}

/** `--metrics-address` (empty: off) and `--metrics-cert-dir`. */
function metricsServing(flags: RunFlags): { metricsAddress: string; metricsCertDir: string } {
  return {
    metricsAddress: flags.metricsAddress ?? '',
    metricsCertDir: flags.metricsCertDir ?? DEFAULT_METRICS_CERT_DIR,
  };
}

/** `--cloud-tagging` (`check` unless given) and `--cloud-credentials` (`minted` unless given). */
function cloudSettings(flags: RunFlags): { cloudTagging: string; cloudCredentials: string } {
  return {
    cloudTagging: flags.cloudTagging ?? 'check',
    cloudCredentials: flags.cloudCredentials ?? 'minted',
  };
}

/** `--parallel-joins` (else the default that follows the memory) and `--parallel-uploads` (else no cap). */
function concurrency(
  flags: RunFlags,
  auto?: () => JoinConcurrency,
): { parallelJoins: number; parallelUploads?: number } {
  const machine = (): JoinConcurrency => (auto ?? (() => defaultParallelJoins(machineResources())))();
  return {
    parallelJoins: Number(flags.parallelJoins ?? machine().parallelJoins),
    ...(flags.parallelUploads === undefined ? {} : { parallelUploads: Number(flags.parallelUploads) }),
  };
}

/** `--log-level`, else debug with `--debug-logging`, else info. */
function logLevelOf(flags: RunFlags): string {
  return flags.logLevel ?? (flags.debugLogging === true ? 'debug' : 'info');
}

/** Flags first, then the environment (upstream's names: WATCH_NAMESPACE, SERVICES_LOG_*, proxy variables). */
export function operatorConfig(flags: RunFlags, env: Env, auto?: () => JoinConcurrency): OperatorConfig {
  const debug = flags.debugLogging === true;
  const candidate = {
    ...kubeTarget(flags, env),
    namespace: flags.namespace ?? env['WATCH_NAMESPACE'] ?? '',
    payloadDir: flags.payload,
    ...concurrency(flags, auto),
    debug,
    logLevel: logLevelOf(flags),
    probeAddress: flags.probeAddress,
    ...metricsServing(flags),
    leaderElection: flags.leaderElection,
    identity: env['POD_NAME'] ?? `wmco-${process.pid}`,
    privateKeySecret: env['WMCO_PRIVATE_KEY_SECRET'] ?? 'cloud-private-key',
    providerPackages: [...providerPackages(flags.providerPackage, env)],
    servicesLog: servicesLog(env),
    proxyEnv: pick(env, ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY']),
    keepLogsOnRemoval: flags.deleteLogsOnRemoval !== true,
    driftRepairIntervalMs: Number(flags.driftRepairInterval) * 1000,
    ...(flags.bootstrapGroup !== undefined ? { bootstrapGroup: flags.bootstrapGroup } : {}),
    registrationTimeoutMs: Number(flags.registrationTimeout ?? '900') * 1000,
    ...maintenance(flags, env),
    ...cloudSettings(flags),
    hostLimits: hostLimitsFromFlags(flags),
  };
  const problems = configProblems(candidate);
  if (candidate.namespace === '') problems.push('set WATCH_NAMESPACE or pass -n');
  if (problems.length > 0) throw new StartupError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  return candidate as OperatorConfig;
}

function hostPort(address: string): [string, number] {
  const i = address.lastIndexOf(':');
  return [address.slice(0, i) || '0.0.0.0', Number(address.slice(i + 1))];
}

/**
 * `/metrics` over HTTPS (TokenReview, SubjectAccessReview, answers cached briefly and reviews rate-limited)
 * once its certificate is there, with the cluster's TLS security profile; off when empty.
 */
function secureMetrics(
  config: OperatorConfig,
  metrics: OperatorMetrics,
  logger: Logger,
): { stop(): Promise<void> } | undefined {
  if (!config.metricsAddress) return undefined;
  const [host, port] = hostPort(config.metricsAddress);
  const kc = loadKubeConfig(config);
  return serveMetricsWhenReady({
    host,
    port,
    certDir: config.metricsCertDir ?? DEFAULT_METRICS_CERT_DIR,
    registry: metrics.registry,
    access: new CachedMetricsAccess(kubeMetricsAccess(kc)),
    tlsProfile: clusterTlsProfile(kc),
    logger,
  });
}

/** `wmco run`: the operator itself (in a pod, or against any cluster with --kubeconfig). */
export function runCommand(ctx: CliContext): Command {
  return hostLimitOptions(new Command('run'))
    .description('Run the operator: join, maintain and remove Windows nodes')
    .option('--kubeconfig <file>', 'kubeconfig (default: $KUBECONFIG, ~/.kube/config or in-cluster)')
    .option('--context <name>', 'kubeconfig context')
    .option('-n, --namespace <ns>', 'the operator namespace (default: $WATCH_NAMESPACE)')
    .option('--payload <dir>', 'directory with the Windows payload and its sha256sum', '/payload')
    .option('--parallel-joins <n>', "hosts configured at once (default: what this process's memory can hold)")
    .option(
      '--parallel-uploads <n>',
      'hosts uploading the payload at once, to keep CPU for other work (default: as many as join at once)',
    )
    .option('--debug-logging', 'verbose service logs on the nodes and debug operator logs')
    .option('--probe-address <host:port>', 'serve /healthz and /readyz here (HTTP)', '0.0.0.0:9182')
    .option(
      '--metrics-address <host:port>',
      'serve /metrics here over HTTPS, to callers the API server authenticates and authorises; empty: off',
      '0.0.0.0:9183',
    )
    .option(
      '--metrics-cert-dir <dir>',
      'tls.crt and tls.key of the metrics endpoint',
      '/etc/wmco/metrics-tls',
    )
    .option('--no-leader-election', 'run without the leader Lease (one replica only!)')
    .option('--delete-logs-on-removal', 'also delete C:\\var\\log when a node is removed')
    .option(
      '--drift-repair-interval <seconds>',
      'check Ready nodes for drift and repair it this often; 0 turns it off',
      '120',
    )
    .option(
      '--bootstrap-group <group>',
      'non-OpenShift clusters: approve kubelet client CSRs from bootstrap tokens in this group',
    )
    .option(
      '--registration-timeout <seconds>',
      'how long after a join decides its node name a client CSR may still be approved for it',
      '900',
    )
    .option(
      '--max-unavailable <n|percent>',
      'Windows nodes that upgrades may take out of service at once (a number or a percentage)',
      '1',
    )
    .option(
      '--drain-timeout <seconds>',
      'after this long, a removal or upgrade whose drain a PodDisruptionBudget blocks deletes the remaining pods and goes on; default: wait',
    )
    .option(
      '--cloud-tagging <mode>',
      'AWS/Azure/GCP: check the cluster ownership tag of BYOH instances; apply it as shared (destroy leaves ' +
        'the instance), or apply-owned (destroy deletes it); applied tags are taken back on removal',
      'check',
    )
    .option(
      '--cloud-credentials <source>',
      "AWS/Azure/GCP: 'minted' reads the Secret minted from the operator's CredentialsRequest; 'root' the installer's root Secret in kube-system",
      'minted',
    )
    .option('--provider-package <name>', 'load a third-party provider package (repeatable)', collect)
    .action(async (runFlags: RunFlags, cmd: Command) => {
      const auto = defaultParallelJoins(machineResources());
      const flags: RunFlags = { ...runFlags, ...globalLogLevel(cmd) };
      const config = operatorConfig(flags, ctx.env, () => auto);
      const redactor = new Redactor();
      const logger = createLogger({ level: config.logLevel, redactor });
      if (flags.parallelJoins === undefined) logConcurrency(logger, auto);
      const metrics = new OperatorMetrics();
      const providers = await loadProviders(ctx.builtinProviders, config.providerPackages);
      let runtime: OperatorRuntime | undefined;
      const [host, port] = hostPort(config.probeAddress);
      const probes = new ProbeServer({
        host,
        port,
        readiness: [
          { name: 'controllers', check: () => (runtime?.synced ? undefined : 'informers not synced') },
        ],
      });
      await probes.start();
      const secure = secureMetrics(config, metrics, logger);
      try {
        runtime = await OperatorRuntime.start({
          config,
          providers,
          container: ctx.container,
          logger,
          redactor,
          metrics,
        });
        const onSignal = (sig: string): void => {
          logger.info({ signal: sig }, 'shutting down');
          void runtime?.stop();
        };
        process.once('SIGTERM', onSignal);
        process.once('SIGINT', onSignal);
        const outcome = await runtime.done;
        if (outcome === 'lost') {
          // Every reconcile's signal aborts: host requests are abandoned at once, so work reaches a safe
          // point quickly; whatever has not after the bound is cut off by the exit.
          logger.error({}, 'lost the leader lease: stopping in-flight work, then exiting');
          await Promise.race([runtime.stop(), sleep(LOST_LEADERSHIP_STOP_MS, undefined, { ref: false })]);
          throw new LeadershipLostError();
        }
      } finally {
        await Promise.all([probes.stop(), secure?.stop()]);
      }
    });
}
