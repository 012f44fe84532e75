import { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import type { runSim, SimOptions } from './sim-run.js';

type RunSim = typeof runSim;

function checkPlatform(p: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(p))
    throw new Error(`--platform: "${p}" is not a platform type name (e.g. None, AWS, Azure)`);
  return p;
}

function isModuleNotFound(err: unknown): boolean {
  return (err as { code?: unknown } | undefined)?.code === 'ERR_MODULE_NOT_FOUND';
}

/**
 * The simulated world, loaded only when `wmco sim` runs: @wmco/sim is a development dependency of the
 * operator, left out of the image (`pnpm deploy --prod`), so nothing else may import it.
 */
export async function loadSimRun(
  load: () => Promise<{ runSim: RunSim }> = () => import('./sim-run.js'),
): Promise<RunSim> {
  try {
    return (await load()).runSim;
  } catch (err) {
    if (!isModuleNotFound(err)) throw err;
    throw new Error(
      'wmco sim needs the simulated world (@wmco/sim), a development dependency that this installation ' +
        'does not have (the operator image leaves it out); run it from a source checkout: ' +
        `pnpm install && pnpm build && pnpm wmco sim (${err instanceof Error ? err.message : String(err)})`,
      { cause: err },
    );
  }
}

/** `wmco sim`: the simulated world on this machine (API server, controllers, seeded cluster; hosts). */
export function simCommand(ctx: CliContext, load?: () => Promise<{ runSim: RunSim }>): Command {
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
      'also create N Windows MachineSets (winms0, ...) in the simulated machine-api (AWS, Azure, GCP: in the simulated cloud; vSphere, Nutanix; not None)',
    )
    .option('--replicas <n>', 'with --machinesets: replicas per MachineSet (default 2)')
    .option(
      '--timeout <seconds>',
      'with --hosts/--hosts-file: stop waiting for the hosts after this long',
      '180',
    )
    .option(
      '--cluster <kubeconfig>',
      'attach mode: start no API server; run the hosts (--hosts/--hosts-file) and the operator against this cluster',
    )
    .option('--seed', 'with --cluster: create OpenShift stand-ins the cluster lacks (never overwriting)')
    .option(
      '--bootstrap-group <group>',
      'with --cluster: kubelet client CSRs come from bootstrap tokens in this group (non-OpenShift)',
    )
    .option(
      '--cleanup',
      'with --cluster: when the run ends, delete what it created in the cluster (never what was there before)',
    )
    .option(
      '--log-out <file>',
      "with --cluster or --hosts/--machinesets: write the operator's log to this file (default: operator.log in a new temporary directory)",
    )
    .option(
      '--upgrade-after <seconds>',
      'with --hosts: this long after every host is Ready, replace the operator with a next version whose payload differs in one binary',
    )
    .option('--max-unavailable <n|percent>', "with --upgrade-after: the next operator's disruption budget")
    .option(
      '--host-engine <engine>',
      'what answers the host module on the simulated hosts: model (the TypeScript model, for scale) or powershell (each session runs the delivered WmcoHost.psm1 in a real pwsh, needs PowerShell 7)',
      'model',
    )
    .action(async (opts: SimOptions) => {
      const platform = checkPlatform(opts.platform);
      const run = await loadSimRun(load);
      await run(ctx, platform, opts);
    });
}
