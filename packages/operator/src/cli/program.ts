import { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { providersCommand } from './providers-command.js';
import { versionCommand } from './version-command.js';
import { renderCommand } from './render/render-command.js';
import { simCommand } from './sim-command.js';
import { runCommand } from './run-command.js';
import { statusCommand } from './status-command.js';
import { rebootCommand } from './reboot-command.js';
import { preflightCommand } from './preflight-command.js';
import { hostcheckCommand } from './hostcheck-command.js';
import { planCommand } from './plan/plan-command.js';

/** The `wmco` command tree. */
export function buildProgram(ctx: CliContext): Command {
  const program = new Command('wmco')
    .description('Windows Machine Config Operator: turns Windows Server hosts into Kubernetes worker nodes')
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => ctx.stdout(s.trimEnd()), writeErr: (s) => ctx.stderr(s.trimEnd()) });
  program.addCommand(providersCommand(ctx));
  program.addCommand(versionCommand(ctx));
  program.addCommand(renderCommand(ctx));
  program.addCommand(simCommand(ctx));
  program.addCommand(runCommand(ctx));
  program.addCommand(statusCommand(ctx));
  program.addCommand(rebootCommand(ctx));
  program.addCommand(preflightCommand(ctx));
  program.addCommand(hostcheckCommand(ctx));
  program.addCommand(planCommand(ctx));
  return program;
}
