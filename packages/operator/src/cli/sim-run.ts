import { writeFile } from 'node:fs/promises';
import { OPERATOR_NAMESPACE, startSimCluster, type SimCluster } from '@wmco/sim';
import type { CliContext } from './cli-context.js';
import { runDemo } from '../world/run-demo.js';

export interface SimOptions {
  readonly keep?: boolean;
  readonly kubeconfigOut?: string;
  readonly platform: string;
  readonly hosts?: string;
}

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

/** Resolves with the signal's name on the first SIGTERM or SIGINT. */
function nextShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (s: NodeJS.Signals): void => {
      process.off('SIGTERM', on);
      process.off('SIGINT', on);
      resolve(s);
    };
    process.on('SIGTERM', on);
    process.on('SIGINT', on);
  });
}

function hostCount(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 50)
    throw new Error(`--hosts: "${raw}" is not a number of hosts from 1 to 50`);
  return n;
}

/** `wmco sim --hosts N`: the whole world and the operator; progress, a summary, optionally kept running. */
async function runWorld(ctx: CliContext, platform: string, opts: SimOptions): Promise<void> {
  const ok = await runDemo({
    hosts: hostCount(opts.hosts ?? ''),
    platform,
    providers: ctx.builtinProviders,
    out: ctx.stdout,
    timeoutMs: 180_000,
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
      if (opts.keep === true) {
        ctx.stdout('world running (operator included); stop with SIGTERM or Ctrl-C');
        ctx.stdout(`received ${await nextShutdownSignal()}, stopping`);
      }
    },
  });
  if (!ok) throw new Error('not every host became Ready (see the table above)');
}

/**
 * `wmco sim` once its options are checked: the simulated cluster alone, or (`--hosts N`) the whole world
 * with the operator. Loaded only by `wmco sim` (sim-command.ts), because @wmco/sim is not in the image.
 */
export async function runSim(ctx: CliContext, platform: string, opts: SimOptions): Promise<void> {
  if (opts.hosts !== undefined) return runWorld(ctx, platform, opts);
  const cluster = await startSimCluster({ platform });
  try {
    if (opts.kubeconfigOut !== undefined)
      await writeFile(opts.kubeconfigOut, cluster.server.kubeconfig(cluster.admin), { mode: 0o600 });
    ctx.stdout(summary(cluster, opts));
    if (opts.keep === true) {
      ctx.stdout('running; stop with SIGTERM or Ctrl-C');
      const signal = await nextShutdownSignal();
      ctx.stdout(`received ${signal}, stopping`);
    }
  } finally {
    await cluster.stop();
  }
  for (const e of cluster.errors) ctx.stderr(`controller ${e.controller} failed: ${String(e.error)}`);
  ctx.stdout('simulated cluster stopped');
}
