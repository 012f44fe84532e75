import type { WindowsBuild } from '../provider/types/windows-build.js';

/** What is wrong with a host's Windows build, and how to fix it. */
export interface WindowsBuildProblem {
  readonly message: string;
  readonly fix: string;
}

/**
 * The host's OS build (and update revision) against the platform's supported Windows Server releases:
 * undefined when one of them matches (build equal, revision at least its `minRevision`). Shared by
 * `wmco preflight` and the join, so the two never disagree.
 */
export function windowsBuildProblem(
  os: { readonly build: number; readonly ubr: number },
  supported: readonly WindowsBuild[],
  platform: string,
): WindowsBuildProblem | undefined {
  const found = `${os.build}.${os.ubr}`;
  const names = supported.map((b) => `${b.name} (${b.build})`).join(', ') || 'none';
  const match = supported.find((b) => b.build === os.build);
  if (!match)
    return {
      message: `OS build ${found} is not supported on platform ${platform}; supported: ${names}`,
      fix: `use one of: ${names}`,
    };
  if (match.minRevision !== undefined && os.ubr < match.minRevision)
    return {
      message: `${match.name} ${found} is older than ${os.build}.${match.minRevision}${match.note ? ` (${match.note})` : ''}`,
      fix: `install the latest cumulative update (at least OS build ${os.build}.${match.minRevision}) with Windows Update`,
    };
  return undefined;
}
