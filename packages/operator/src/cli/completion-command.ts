import { Argument, Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { bashCompletion, zshCompletion } from './completion-script.js';

/**
 * `wmco completion bash|zsh`: prints a shell completion script (sub-commands, their options, `-o` values).
 * `program` builds the whole command tree; it is called only here, so no other command pays for it.
 */
export function completionCommand(ctx: CliContext, program: () => Promise<Command>): Command {
  return new Command('completion')
    .description('Print a shell completion script: source <(wmco completion bash), or zsh')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh']))
    .action(async (shell: 'bash' | 'zsh') => {
      const tree = await program();
      ctx.stdout(shell === 'bash' ? bashCompletion(tree) : zshCompletion(tree));
    });
}
