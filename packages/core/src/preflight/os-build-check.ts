import type { HostState } from '../host/protocol/index.js';
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
  const supported = prereqs.supportedBuilds.map((b) => `${b.name} (${b.build})`).join(', ');
  const match = prereqs.supportedBuilds.find((b) => b.build === build);
  if (!match)
    return fail(
      'os-build',
      `OS build ${found} is not supported on platform ${options.platform}; supported: ${supported || 'none'}`,
      `use one of: ${supported || 'none'}`,
    );
  if (match.minRevision !== undefined && ubr < match.minRevision)
    return fail(
      'os-build',
      `${match.name} ${found} is older than ${build}.${match.minRevision}${match.note ? ` (${match.note})` : ''}`,
      `install the latest cumulative update (at least OS build ${build}.${match.minRevision}) with Windows Update`,
    );
  // Windows Server 2019 cannot use a custom hybrid-overlay VXLAN port (reference §2).
  if (build === WS2019_BUILD && options.vxlanPort !== DEFAULT_VXLAN_PORT)
    return fail(
      'os-build',
      `${match.name} cannot use the custom VXLAN port ${options.vxlanPort}`,
      'use Windows Server 2022 or later, or the default VXLAN port 4789 where the platform allows it',
    );
  return pass('os-build', `${match.name}, OS build ${found}`);
}
