import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { OPERATOR_NAMESPACE, startSimCluster, type SimCluster } from '@wmco/sim';
import type { CliContext } from './cli-context.js';
import { demoHosts } from '../world/demo-hosts.js';
import { readHostsFile } from '../world/hosts-file.js';
import type { DemoMachineSets } from '../world/demo-machines.js';
import { runDemo } from '../world/run-demo.js';
import type { SimHostSpec } from '../world/world-hosts.js';

interface SimOptions {
  readonly keep?: boolean;
  readonly kubeconfigOut?: string;
  readonly platform: string;
  readonly hosts?: string;
  readonly hostsFile?: string;
  readonly timeout: string;
  readonly machinesets?: string;
  readonly replicas: string;
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

/** The hosts of `--hosts N` (the demo's) or of `--hosts-file FILE`; not both; none with only --machinesets. */
async function worldHosts(opts: SimOptions): Promise<readonly SimHostSpec[]> {
  if (opts.hosts !== undefined && opts.hostsFile !== undefined)
    throw new Error('--hosts and --hosts-file cannot be used together');
  if (opts.hostsFile !== undefined) return readHostsFile(opts.hostsFile);
  if (opts.hosts === undefined && opts.machinesets !== undefined) return [];
  return demoHosts(hostCount(opts.hosts ?? ''));
}

function count(flag: string, raw: string, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new Error(`--${flag}: "${raw}" is not a number from 1 to ${max}`);
  return n;
}

/** `--machinesets N --replicas R`, or undefined. */
function machineSets(opts: SimOptions): DemoMachineSets | undefined {
  if (opts.machinesets === undefined) return undefined;
  return {
    count: count('machinesets', opts.machinesets, 10),
    replicas: count('replicas', opts.replicas, 20),
  };
}

/** `wmco sim --hosts N|--hosts-file FILE`: the world and the operator; progress, a summary, optionally kept running. */
async function runWorld(ctx: CliContext, platform: string, opts: SimOptions): Promise<void> {
  const hosts = await worldHosts(opts);
  const sets = machineSets(opts);
  const ok = await runDemo({
    hosts,
    platform,
    ...(sets ? { machineSets: sets } : {}),
    providers: ctx.builtinProviders,
    out: ctx.stdout,
    timeoutMs: timeoutMs(opts.timeout),
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
  if (!ok) throw new Error('not every host or Machine became Ready (see above)');
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
      '--hosts-file <file>',
      'like --hosts, with the hosts described in a YAML file (hostname, listAs, dnsName, shell)',
    )
    .option(
      '--machinesets <n>',
      'also create N Windows MachineSets (winms0, ...) in the simulated machine-api (vSphere, Nutanix; not None)',
    )
    .option('--replicas <n>', 'with --machinesets: replicas per MachineSet', '2')
    .option(
      '--timeout <seconds>',
      'with --hosts/--hosts-file: stop waiting for the hosts after this long',
      '180',
    )
    .action(async (opts: SimOptions) => {
      const platform = checkPlatform(opts.platform);
      if (opts.hosts !== undefined || opts.hostsFile !== undefined || opts.machinesets !== undefined)
        return runWorld(ctx, platform, opts);
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
