import { CommanderError } from 'commander';

/** What commander reports when it printed help or the version on request: not a failure. */
const ASKED_FOR = new Set(['commander.helpDisplayed', 'commander.version']);

/**
 * The process exit code for an error out of the command line: 0 for help or the version asked for, 2 for
 * a usage error (an unknown option or command, a missing argument, help shown because no command was
 * given), as kubectl and most Unix tools do, and 1 for a command that ran and failed.
 */
export function exitCodeOf(err: unknown): number {
  if (!(err instanceof CommanderError)) return 1;
  if (ASKED_FOR.has(err.code)) return 0;
  return 2;
}

/** Makes commander throw instead of exiting, on the program and on every sub-command below it. */
export function throwOnExit(program: {
  exitOverride(): unknown;
  readonly commands: readonly unknown[];
}): void {
  program.exitOverride();
  for (const sub of program.commands) throwOnExit(sub as typeof program);
}
