import { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { COMMANDS, selectedCommand } from './command-table.js';
import { logLevelOption } from './log-level-option.js';
import { WMCO_VERSION } from './wmco-version.js';

/**
 * The `wmco` command tree. Without `args` every sub-command is loaded (tests, embedders). With the command
 * line's `args` only the sub-command it names is; the others are listed by name and summary, so
 * `wmco --help` and `wmco version` do not load the Kubernetes client or the providers.
 */
export async function buildProgram(
  ctx: CliContext,
  args?: readonly string[],
  name = 'wmco',
): Promise<Command> {
  const program = new Command(name)
    .description('Windows Machine Config Operator: turns Windows Server hosts into Kubernetes worker nodes')
    .version(WMCO_VERSION, '--version', 'print the wmco version')
    .addOption(logLevelOption())
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => ctx.stdout(s.trimEnd()), writeErr: (s) => ctx.stderr(s.trimEnd()) });
  const selected = args === undefined ? undefined : selectedCommand(args);
  for (const entry of COMMANDS) {
    if (args === undefined || entry === selected) program.addCommand(await entry.load(ctx));
    else program.addCommand(new Command(entry.name).description(entry.summary).allowUnknownOption());
  }
  return program;
}
