import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';

/**
 * One `wmco` sub-command as the start-up sees it: its name and one-line description (what `wmco --help`
 * lists) and how to load it. A command's module, and what it imports (`@kubernetes/client-node`, the
 * providers), is loaded only when that command runs, so `wmco --help` and `wmco version` start in a
 * fraction of the time (`pnpm bench cli`). `command-table.test.ts` checks each summary against the
 * loaded command's own description.
 */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  /** Whether the command reads the built-in providers (loading them costs about 0.15 s). */
  readonly usesProviders: boolean;
  load(ctx: CliContext): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'providers',
    summary: 'List the platform providers this build knows and the capabilities each registers',
    usesProviders: true,
    load: async (ctx) => (await import('./providers-command.js')).providersCommand(ctx),
  },
  {
    name: 'version',
    summary: 'Print the wmco version, the provider contract version and the Node.js runtime',
    usesProviders: false,
    load: async (ctx) => (await import('./version-command.js')).versionCommand(ctx),
  },
  {
    name: 'render',
    summary:
      'Show exactly what Windows nodes will get (user data, services, kubelet config, registry hosts, instances)',
    usesProviders: true,
    load: async (ctx) => (await import('./render/render-command.js')).renderCommand(ctx),
  },
  {
    name: 'sim',
    summary: 'Start the simulated OpenShift-like cluster (API server and cluster controllers) on loopback',
    usesProviders: true,
    load: async (ctx) => (await import('./sim-command.js')).simCommand(ctx),
  },
  {
    name: 'run',
    summary: 'Run the operator: join, maintain and remove Windows nodes',
    usesProviders: true,
    load: async (ctx) => (await import('./run-command.js')).runCommand(ctx),
  },
  {
    name: 'status',
    summary: "Show the operator's conditions and each Windows instance: phase, node, timings and last error",
    usesProviders: false,
    load: async (ctx) => (await import('./status-command.js')).statusCommand(ctx),
  },
  {
    name: 'reboot',
    summary: 'Reboot a Windows node gracefully: cordon, drain, reboot, restore routes, uncordon',
    usesProviders: false,
    load: async (ctx) => (await import('./reboot-command.js')).rebootCommand(ctx),
  },
  {
    name: 'preflight',
    summary: 'Check a Windows host before adding it to windows-instances (one line per check, with the fix)',
    usesProviders: true,
    load: async (ctx) => (await import('./preflight-command.js')).preflightCommand(ctx),
  },
  {
    name: 'hostcheck',
    summary:
      'Run the host module read-only on a Windows host and save what its cmdlets return as test fixtures',
    usesProviders: true,
    load: async (ctx) => (await import('./hostcheck-command.js')).hostcheckCommand(ctx),
  },
  {
    name: 'must-gather',
    summary:
      "Collect the operator's logs, events, ConfigMaps, Windows Nodes, CSRs and each Windows node's service logs into a folder",
    usesProviders: false,
    load: async (ctx) => (await import('./must-gather/must-gather-command.js')).mustGatherCommand(ctx),
  },
  {
    name: 'plan',
    summary:
      'Show what the operator would do now: per BYOH node the changes of converging it, per Windows Machine its next action',
    usesProviders: true,
    load: async (ctx) => (await import('./plan/plan-command.js')).planCommand(ctx),
  },
  {
    name: 'payload',
    summary: 'Check the Windows payload (binaries and their sha256sum file) before building an image',
    usesProviders: false,
    load: async (ctx) => (await import('./payload/payload-command.js')).payloadCommand(ctx),
  },
  {
    name: 'completion',
    summary: 'Print a shell completion script: source <(wmco completion bash), or zsh',
    usesProviders: false,
    load: async (ctx) => {
      const { completionCommand } = await import('./completion-command.js');
      // The script lists every command's options: the whole tree, built only when the script is asked for.
      const { buildProgram } = await import('./program.js');
      return completionCommand(ctx, () => buildProgram(ctx));
    },
  },
];

/** The program's options that take a value (program.ts). */
const GLOBAL_VALUE_OPTIONS: ReadonlySet<string> = new Set(['--log-level']);

/**
 * The sub-command a command line names (its first word that is not an option; for `help <command>`, the
 * word after it), if it is one of ours.
 */
export function selectedCommand(args: readonly string[]): CommandEntry | undefined {
  // The value of a global option that takes one (`--log-level debug`) is not a command.
  const words = args.filter((a, i) => !a.startsWith('-') && !GLOBAL_VALUE_OPTIONS.has(args[i - 1] ?? ''));
  const word = words[0] === 'help' ? words[1] : words[0];
  return COMMANDS.find((c) => c.name === word);
}
