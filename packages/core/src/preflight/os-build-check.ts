import type { HostState } from '../host/protocol/index.js';
import { windowsBuildProblem } from '../host/windows-build-problem.js';
import type { PlatformPrerequisites } from '../provider/index.js';
import { fail, pass, type Finding } from './finding.js';
import { DEFAULT_VXLAN_PORT, type HostCheckOptions } from './preflight-options.js';

const WS2019_BUILD = 17763;

/** The OS build (and update revision) against the platform's supported Windows Server releases. */
export function checkOsBuild(
  state: HostState,
  prereqs: PlatformPrerequisites,
  options: HostCheckOptions,
): Finding {
  const { build, ubr } = state.os;
  const found = `${build}.${ubr}`;
  const problem = windowsBuildProblem(state.os, prereqs.supportedBuilds, options.platform);
  if (problem) return fail('os-build', problem.message, problem.fix);
  const match = prereqs.supportedBuilds.find((b) => b.build === build)!;
  // Windows Server 2019 cannot use a custom hybrid-overlay VXLAN port (reference §2).
  if (build === WS2019_BUILD && options.vxlanPort !== DEFAULT_VXLAN_PORT)
    return fail(
      'os-build',
      `${match.name} cannot use the custom VXLAN port ${options.vxlanPort}`,
      'use Windows Server 2022 or later, or the default VXLAN port 4789 where the platform allows it',
    );
  return pass('os-build', `${match.name}, OS build ${found}`);
}
