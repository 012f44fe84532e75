import { Option, type Command } from 'commander';

/** The operator's log levels (runtime/operator-config.ts). */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** `--log-level`, given before or after the sub-command (`wmco --log-level debug run`, `wmco run --log-level debug`). */
export function logLevelOption(): Option {
  return new Option(
    '--log-level <level>',
    "the operator's log level (default: info; debug with --debug-logging)",
  ).choices(LOG_LEVELS);
}

/** The global `--log-level` as a sub-command sees it: `{ logLevel }` when given, else nothing. */
export function globalLogLevel(cmd: Command): { logLevel?: string } {
  const level = cmd.optsWithGlobals<{ logLevel?: string }>().logLevel;
  return level === undefined ? {} : { logLevel: level };
}
