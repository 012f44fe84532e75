import type { DependencyContainer, WmcoProvider } from '@wmco/core/provider';

/** What every sub-command receives from the composition root. */
export interface CliContext {
  /** A child of the process container; commands create their own children from it. */
  readonly container: DependencyContainer;
  /** The providers baked into this build. */
  readonly builtinProviders: readonly WmcoProvider[];
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Environment, injected so that tests and embedders control it (no process.env reads elsewhere). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Ends what runs until interrupted (`status -w`, `reboot --wait`); without it, they end with the process. */
  readonly signal?: AbortSignal;
}
