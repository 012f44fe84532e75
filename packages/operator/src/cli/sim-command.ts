import { Command, Option } from 'commander';
import type { CliContext } from './cli-context.js';
import { simFlagProblems } from './sim-flags.js';

/** The options `wmco sim` parses; the simulated world's `runSim` (in @wmco/world) reads them. */
export interface SimOptions {
  readonly keep?: boolean;
  readonly kubeconfigOut?: string;
  readonly platform: string;
  readonly hosts?: string;
  readonly hostsFile?: string;
  readonly timeout: string;
  readonly cluster?: string;
  readonly seed?: boolean;
  readonly bootstrapGroup?: string;
  readonly cleanup?: boolean;
  readonly logOut?: string;
  readonly upgradeAfter?: string;
  readonly maxUnavailable?: string;
  readonly machinesets?: string;
  readonly replicas?: string;
  readonly hostEngine?: string;
}

/** What @wmco/world's `sim` entry exports: runs `wmco sim` with the parsed options. */
export type RunSim = (ctx: CliContext, platform: string, opts: SimOptions) => Promise<void>;

/**
 * The simulated world's entry. A string variable, not a literal: @wmco/world depends on the operator, so
 * the operator neither lists it as a dependency nor lets the compiler follow this import (no cycle). In a
 * source checkout the workspace root's node_modules links it; the image (`pnpm deploy --prod` of the
 * operator) has no such package.
 */
const WORLD_SIM_ENTRY: string = '@wmco/world/sim';

function checkPlatform(p: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(p))
    throw new Error(`--platform: "${p}" is not a platform type name (e.g. None, AWS, Azure)`);
  return p;
}

function isModuleNotFound(err: unknown): boolean {
  return (err as { code?: unknown } | undefined)?.code === 'ERR_MODULE_NOT_FOUND';
}

/**
 * The simulated world, loaded only when `wmco sim` runs: @wmco/world (with @wmco/sim) is a separate,
 * private package of the source checkout, left out of the image, so nothing else may import it.
 */
export async function loadSimRun(
  load: () => Promise<{ runSim: RunSim }> = () => import(WORLD_SIM_ENTRY) as Promise<{ runSim: RunSim }>,
): Promise<RunSim> {
  try {
    return (await load()).runSim;
  } catch (err) {
    if (!isModuleNotFound(err)) throw err;
    throw new Error(
      'wmco sim needs the simulated world (@wmco/world and @wmco/sim), packages of the source checkout ' +
        'that this installation does not have (the operator image leaves them out); run it from a source checkout: ' +
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
    .addOption(
      new Option(
        '--host-engine <engine>',
        'what answers the host module on the simulated hosts: model (the TypeScript model, for scale) or powershell (each session runs the delivered WmcoHost.psm1 in a real pwsh, needs PowerShell 7)',
      )
        .choices(['model', 'powershell'])
        .default('model'),
    )
    .action(async (opts: SimOptions, cmd: Command) => {
      // Contradictory or out-of-range flags are usage errors (exit 2), found before anything starts.
      const served = ctx.builtinProviders.flatMap((p) => p.platforms);
      const problems = simFlagProblems(opts, served);
      if (problems.length > 0)
        cmd.error(`wmco sim: ${problems.join('; ')}`, { exitCode: 2, code: 'wmco.sim.flags' });
      const platform = checkPlatform(opts.platform);
      const run = await loadSimRun(load);
      await run(ctx, platform, opts);
    });
}
