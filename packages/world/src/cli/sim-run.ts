import { writeFile } from 'node:fs/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { OPERATOR_NAMESPACE, startSimCluster, type SimCluster } from '@wmco/sim';
import { publishSimCloud, writeCloudFile } from '../clouds/publish-sim-cloud.js';
import { startSimCredentialOperator } from '../clouds/sim-credential-operator.js';
import { simCloudMetadataHostname, startSimCloud, type SimCloud } from '../clouds/sim-clouds.js';
import type { SimWorld } from '../world/sim-world.js';
import { WMCO_VERSION, type CliContext, type RunSim, type SimOptions } from '@wmco/operator';
import { demoHosts } from '../world/demo-hosts.js';
import { readHostsFile } from '../world/hosts-file.js';
import { demoMachineSetsFlags } from '../world/demo-machines.js';
import { runDemo } from '../world/run-demo.js';
import { upgradeDemo } from '../world/upgrade-demo.js';
import { upgradePlan } from './sim-upgrade-plan.js';
import { runAttached } from './sim-attach.js';
import { OperatorLogFile } from '../world/attach-log.js';
import { OPERATOR_DEPLOYMENT } from '../world/operator-pod.js';
import type { SimHostSpec } from '../world/world-hosts.js';
import { parseHostEngine } from '../world/host-engine.js';
import { nextShutdownSignal } from './shutdown-signal.js';

function summary(cluster: SimCluster, opts: SimOptions): string {
  const lines = [
    `simulated cluster up: ${cluster.server.url}`,
    `  platform:            ${cluster.platform}`,
    `  infrastructure name: ${cluster.infrastructureName}`,
    `  served types:        ${cluster.server.registry.all().length}`,
  ];
  if (opts.kubeconfigOut !== undefined) {
    lines.push(
      `  admin kubeconfig:    ${opts.kubeconfigOut}`,
      '',
      'use it with:',
      `  export KUBECONFIG=${opts.kubeconfigOut}`,
      '  kubectl get nodes',
      '  kubectl get infrastructure cluster -o yaml',
    );
  }
  return lines.join('\n');
}

/**
 * Reports the world's simulated cloud (AWS, Azure, GCP: started with the world, its hosts and Machines
 * are its instances, the cluster points at it) and, with --kubeconfig-out F, writes F.cloud.json.
 */
async function reportCloud(
  ctx: CliContext,
  world: SimWorld,
  kubeconfigOut: string | undefined,
): Promise<void> {
  const cloud = world.cloud;
  if (!cloud) return;
  ctx.stdout(`simulated ${cloud.platform} cloud: ${cloud.url} (${world.hosts.hosts.length} instances)`);
  if (kubeconfigOut !== undefined)
    ctx.stdout(
      `  cloud file: ${await writeCloudFile(kubeconfigOut, cloud, world.cluster.infrastructureName)}`,
    );
}

/**
 * The cluster alone (no world): starts the platform's simulated cloud (AWS, Azure, GCP) with only the
 * control plane's instances, points the cluster at it and, with --kubeconfig-out F, writes F.cloud.json.
 */
async function attachCloud(
  ctx: CliContext,
  cluster: SimCluster,
  kubeconfigOut: string | undefined,
): Promise<SimCloud | undefined> {
  const cloud = await startSimCloud(cluster.platform);
  if (!cloud) return undefined;
  try {
    const kc = new KubeConfig();
    kc.loadFromString(cluster.server.kubeconfig(cluster.admin));
    await publishSimCloud(kc, cloud);
    // A cloud credential operator: CredentialsRequests applied to this cluster (deploy/) get a Secret.
    startSimCredentialOperator(cluster, cloud);
    ctx.stdout(`simulated ${cloud.platform} cloud: ${cloud.url} (the control plane's 3 instances)`);
    if (kubeconfigOut !== undefined)
      ctx.stdout(`  cloud file: ${await writeCloudFile(kubeconfigOut, cloud, cluster.infrastructureName)}`);
    return cloud;
  } catch (error) {
    await cloud.close();
    throw error;
  }
}

function hostCount(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 50)
    throw new Error(`--hosts: "${raw}" is not a number of hosts from 1 to 50`);
  return n;
}

function timeoutMs(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 3600)
    throw new Error(`--timeout: "${raw}" is not a number of seconds from 1 to 3600`);
  return n * 1000;
}

/** The hosts of `--hosts N` (the demo's) or of `--hosts-file FILE`; not both. */
async function worldHosts(opts: SimOptions): Promise<readonly SimHostSpec[]> {
  if (opts.hosts !== undefined && opts.hostsFile !== undefined)
    throw new Error('--hosts and --hosts-file cannot be used together');
  if (opts.hostsFile !== undefined) return readHostsFile(opts.hostsFile);
  if (opts.hosts === undefined && opts.machinesets !== undefined) return [];
  return demoHosts(hostCount(opts.hosts ?? ''));
}

/** Hosts or MachineSets were asked for: the whole world with the operator, not the cluster alone. */
function wantsWorld(opts: SimOptions): boolean {
  return [opts.hosts, opts.hostsFile, opts.machinesets].some((o) => o !== undefined);
}

/** `wmco sim --hosts N|--hosts-file FILE`: the world and the operator; progress, a summary, optionally kept running. */
async function runWorld(ctx: CliContext, platform: string, opts: SimOptions): Promise<void> {
  const upgrade = upgradePlan(opts);
  let upgraded = true;
  let shutdown: ReturnType<typeof nextShutdownSignal> | undefined;
  // Each host hears from its cloud's metadata service the name the cloud gives it (GCE: the zonal DNS name).
  const hosts = (await worldHosts(opts)).map((h) => {
    const metadataHostname = simCloudMetadataHostname(platform, h.hostname);
    return metadataHostname ? { ...h, metadataHostname } : h;
  });
  const sets = demoMachineSetsFlags(opts);
  const hostEngine = parseHostEngine(opts.hostEngine ?? 'model');
  const log = await OperatorLogFile.open(opts.logOut);
  ctx.stdout(
    `operator log: ${log.path}  (also: kubectl -n ${OPERATOR_NAMESPACE} logs deployment/${OPERATOR_DEPLOYMENT})`,
  );
  const ok = await runDemo({
    logSink: log.write,
    hostEngine,
    hosts,
    platform,
    ...(sets ? { machineSets: sets } : {}),
    providers: ctx.builtinProviders,
    out: ctx.stdout,
    timeoutMs: timeoutMs(opts.timeout),
    beforeOperator: (world) => reportCloud(ctx, world, opts.kubeconfigOut),
    whileRunning: async (world) => {
      if (opts.kubeconfigOut !== undefined) {
        await writeFile(opts.kubeconfigOut, world.cluster.server.kubeconfig(world.cluster.admin), {
          mode: 0o600,
        });
        ctx.stdout(
          `\nadmin kubeconfig: ${opts.kubeconfigOut}  (export KUBECONFIG=${opts.kubeconfigOut}; kubectl get nodes)`,
        );
        const ports = world.hosts.hosts
          .filter((h) => h.sim.port !== 22)
          .map((h) => `${h.address}=${h.sim.port}`);
        const env = ports.length > 0 ? `WMCO_SSH_PORT_OVERRIDES=${ports.join(',')} ` : '';
        ctx.stdout(
          `preview drift: ${env}wmco plan --kubeconfig ${opts.kubeconfigOut} -n ${OPERATOR_NAMESPACE} --payload ${world.payloadDir}`,
        );
      }
      if (upgrade) {
        const nextVersion = `${WMCO_VERSION}-next`;
        upgraded = await upgradeDemo(world, { ...upgrade, nextVersion, timeoutMs: 600_000, out: ctx.stdout });
      }
      if (opts.keep === true) {
        ctx.stdout('world running (operator included); stop with SIGTERM or Ctrl-C');
        shutdown = nextShutdownSignal(ctx);
        ctx.stdout(`received ${await shutdown.signal}, stopping`);
      }
    },
  }).finally(async () => {
    await log.close();
    shutdown?.stopped();
  });
  ctx.stdout(`operator log: ${log.path}`);
  if (!ok) throw new Error('not every host became Ready (see the table above)');
  if (!upgraded) throw new Error('the upgrade did not finish in time (see the lines above)');
}

/** `wmco sim --cluster KUBECONFIG`: hosts and operator against that cluster (attach mode, sim-attach.ts). */
async function attach(ctx: CliContext, platform: string, opts: SimOptions): Promise<void> {
  if (opts.keep === true || opts.kubeconfigOut !== undefined)
    throw new Error('--cluster starts no API server: --keep and --kubeconfig-out do not apply');
  const hosts = await worldHosts(opts);
  // The scenario fields (key, faults, nodeSubnet, hostileCsrs) are staged by the simulated world only.
  if (hosts.some((h) => h.scenario !== undefined))
    throw new Error('--cluster: the hosts file uses scenario fields, which only the simulated world stages');
  await runAttached(ctx, {
    cluster: opts.cluster ?? '',
    seed: opts.seed === true,
    hosts,
    platform,
    timeoutMs: timeoutMs(opts.timeout),
    cleanup: opts.cleanup === true,
    ...(opts.logOut !== undefined ? { logOut: opts.logOut } : {}),
    ...(opts.bootstrapGroup !== undefined ? { bootstrapGroup: opts.bootstrapGroup } : {}),
  });
}

/**
 * `wmco sim` once its options are checked: attach mode (`--cluster`), the whole world with the operator
 * (`--hosts`/`--hosts-file`), or the simulated cluster alone. Loaded only by `wmco sim` (sim-command.ts),
 * because @wmco/sim is not in the image.
 */
/** `wmco sim` (loaded by @wmco/operator's sim command through this package's `./sim` export). */
export const runSim: RunSim = async (ctx, platform, opts) => {
  if (opts.cluster !== undefined) return attach(ctx, platform, opts);
  if ([opts.seed, opts.bootstrapGroup, opts.cleanup].some((x) => x !== undefined))
    throw new Error('--seed, --bootstrap-group and --cleanup apply only with --cluster');
  if (wantsWorld(opts)) return runWorld(ctx, platform, opts);
  if (opts.logOut !== undefined)
    throw new Error(
      '--log-out applies with --cluster, --hosts, --hosts-file or --machinesets (an operator runs)',
    );
  return runCluster(ctx, platform, opts);
};

/** `wmco sim` alone: the simulated cluster (and the platform's cloud), until SIGTERM with --keep. */
async function runCluster(ctx: CliContext, platform: string, opts: SimOptions): Promise<void> {
  const cluster = await startSimCluster({ platform });
  let cloud: SimCloud | undefined;
  // From here a SIGTERM stops what started, whatever is still starting.
  const shutdown = opts.keep === true ? nextShutdownSignal(ctx) : undefined;
  try {
    if (opts.kubeconfigOut !== undefined)
      await writeFile(opts.kubeconfigOut, cluster.server.kubeconfig(cluster.admin), { mode: 0o600 });
    ctx.stdout(summary(cluster, opts));
    cloud = await attachCloud(ctx, cluster, opts.kubeconfigOut);
    if (opts.keep === true) {
      ctx.stdout('running; stop with SIGTERM or Ctrl-C');
      ctx.stdout(`received ${await shutdown?.signal}, stopping`);
    }
  } finally {
    await cloud?.close();
    await cluster.stop();
    shutdown?.stopped();
  }
  for (const e of cluster.errors) ctx.stderr(`controller ${e.controller} failed: ${String(e.error)}`);
  ctx.stdout('simulated cluster stopped');
}
