import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { OPERATOR_NAMESPACE, startSimCluster, type SimCluster } from '@wmco/sim';
import type { CliContext } from './cli-context.js';
import { parseMaxUnavailable } from '@wmco/core';
import { runDemo } from '../world/run-demo.js';
import { upgradeDemo } from '../world/upgrade-demo.js';
import { WMCO_VERSION } from './version-command.js';

interface SimOptions {
  readonly keep?: boolean;
  readonly kubeconfigOut?: string;
  readonly platform: string;
  readonly hosts?: string;
  readonly upgradeAfter?: string;
  readonly maxUnavailable?: string;
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

function checkPlatform(p: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(p))
    throw new Error(`--platform: "${p}" is not a platform type name (e.g. None, AWS, Azure)`);
  return p;
}

/** `--upgrade-after S [--max-unavailable K]`, checked before anything starts. */
function upgradePlan(opts: SimOptions): { afterMs: number; maxUnavailable?: string } | undefined {
  if (opts.upgradeAfter === undefined) {
    if (opts.maxUnavailable !== undefined) throw new Error('--max-unavailable needs --upgrade-after');
    return undefined;
  }
  const s = Number(opts.upgradeAfter);
  if (!Number.isFinite(s) || s < 0 || s > 3600)
    throw new Error(`--upgrade-after: "${opts.upgradeAfter}" is not a number of seconds from 0 to 3600`);
  if (opts.maxUnavailable !== undefined) parseMaxUnavailable(opts.maxUnavailable);
  return { afterMs: s * 1000, ...(opts.maxUnavailable ? { maxUnavailable: opts.maxUnavailable } : {}) };
}

function hostCount(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 50)
    throw new Error(`--hosts: "${raw}" is not a number of hosts from 1 to 50`);
  return n;
}

/** `wmco sim --hosts N`: the whole world and the operator; progress, a summary, optionally kept running. */
async function runWorld(ctx: CliContext, platform: string, opts: SimOptions): Promise<void> {
  const upgrade = upgradePlan(opts);
  let upgraded = true;
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
      if (upgrade) {
        const nextVersion = `${WMCO_VERSION}-next`;
        upgraded = await upgradeDemo(world, { ...upgrade, nextVersion, timeoutMs: 600_000, out: ctx.stdout });
      }
      if (opts.keep === true) {
        ctx.stdout('world running (operator included); stop with SIGTERM or Ctrl-C');
        ctx.stdout(`received ${await nextShutdownSignal()}, stopping`);
      }
    },
  });
  if (!ok) throw new Error('not every host became Ready (see the table above)');
  if (!upgraded) throw new Error('the upgrade did not finish in time (see the lines above)');
}

/** `wmco sim`: the simulated world on this machine (first version: API server, controllers, seeded cluster). */
export function simCommand(ctx: CliContext): Command {
  return new Command('sim')
    .description(
      'Start the simulated OpenShift-like cluster (API server and cluster controllers) on loopback',
    )
    .option('--keep', 'keep running until SIGTERM or SIGINT (default: print a summary and exit)')
    .option('--kubeconfig-out <file>', 'write an admin kubeconfig for kubectl to this file')
    .option('--platform <type>', 'Infrastructure platform type', 'None')
    .option('--hosts <n>', 'also start N simulated Windows hosts and the operator, and join them (the demo)')
    .option(
      '--upgrade-after <seconds>',
      'with --hosts: this long after every host is Ready, replace the operator with a next version whose payload differs in one binary',
    )
    .option('--max-unavailable <n|percent>', "with --upgrade-after: the next operator's disruption budget")
    .action(async (opts: SimOptions) => {
      const platform = checkPlatform(opts.platform);
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
    });
}
