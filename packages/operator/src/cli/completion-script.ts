import type { Command, Option } from 'commander';

/** One option's spellings and, when it takes one of a few values, those values. */
interface OptionWords {
  readonly flags: readonly string[];
  readonly choices: readonly string[];
}

function optionWords(o: Option): OptionWords {
  const flags = [o.short, o.long].filter((f): f is string => f !== undefined);
  return { flags, choices: o.argChoices ?? [] };
}

const quoteWords = (words: readonly string[]): string => words.join(' ').replace(/[^\w\s./=<>-]/g, '');

/** The `case "$prev"` arms that complete an option's values (`-o` → `table wide json ...`). */
function valueArms(options: readonly OptionWords[]): string[] {
  return options
    .filter((o) => o.choices.length > 0)
    .map(
      (o) =>
        `        ${o.flags.join('|')}) COMPREPLY=($(compgen -W "${quoteWords(o.choices)}" -- "$cur")); return;;`,
    );
}

/** The arm completing one sub-command: its options' values after an option, else its options. */
function commandArm(cmd: Command): string {
  const options = [...cmd.options.map(optionWords), { flags: ['--help'], choices: [] }];
  const words = options.flatMap((o) => o.flags);
  return [
    `    ${cmd.name()})`,
    '      case "$prev" in',
    ...valueArms(options),
    '      esac',
    `      COMPREPLY=($(compgen -W "${quoteWords(words)}" -- "$cur"));;`,
  ].join('\n');
}

/**
 * A bash completion script for `wmco` (and `kubectl-wmco`), made from the command tree: sub-command names
 * first, then each sub-command's options and the values of options that take one of a few (`-o`).
 * zsh loads the same function through bashcompinit.
 */
export function bashCompletion(program: Command): string {
  const commands = program.commands.filter((c) => c.name() !== 'help');
  const names = commands.map((c) => c.name());
  return [
    '# wmco completion for bash: source <(wmco completion bash)',
    '_wmco() {',
    '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd="" i',
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    case ${COMP_WORDS[i]} in -*) ;; *) cmd=${COMP_WORDS[i]}; break;; esac',
    '  done',
    '  case $cmd in',
    `    "") COMPREPLY=($(compgen -W "${quoteWords([...names, 'help', '--help', '--version'])}" -- "$cur"));;`,
    ...commands.map(commandArm),
    '  esac',
    '}',
    'complete -o default -F _wmco wmco kubectl-wmco',
  ].join('\n');
}

/** The same for zsh: bash's function through zsh's bashcompinit. */
export function zshCompletion(program: Command): string {
  return [
    '# wmco completion for zsh: source <(wmco completion zsh)',
    'autoload -U +X compinit && compinit',
    'autoload -U +X bashcompinit && bashcompinit',
    bashCompletion(program),
  ].join('\n');
}
