import { windowsBuildProblem } from '../host/windows-build-problem.js';
import type { WindowsBuild } from '../provider/types/windows-build.js';

/** The Windows Server releases a platform supports (its provider's PlatformPrerequisites). */
export interface PlatformBuilds {
  readonly platform: string;
  readonly supported: readonly WindowsBuild[];
}

/** A host whose Windows build the platform does not support: the join stops before changing anything. */
export class UnsupportedWindowsBuildError extends Error {
  override readonly name = 'UnsupportedWindowsBuildError';
}

/**
 * Refuses a join on a host whose observed OS build (and update revision) none of the platform's supported
 * Windows Server releases matches, the check `wmco preflight` makes. No list (a provider without
 * PlatformPrerequisites) checks nothing.
 */
export function refuseUnsupportedBuild(
  os: { readonly build: number; readonly ubr: number },
  builds: PlatformBuilds | undefined,
): void {
  if (!builds || builds.supported.length === 0) return;
  const problem = windowsBuildProblem(os, builds.supported, builds.platform);
  if (problem)
    throw new UnsupportedWindowsBuildError(
      `${problem.message}; nothing was changed on the host: ${problem.fix}`,
    );
}
