import type { HostState } from '../host/protocol/index.js';
import type { PlatformPrerequisites } from '../provider/index.js';
import { checkContainers, checkDisk, checkShell } from './basic-host-checks.js';
import type { Finding } from './finding.js';
import { checkFolders } from './folders-check.js';
import { checkFirewall } from './firewall-check.js';
import { checkHostname } from './hostname-check.js';
import { checkOsBuild } from './os-build-check.js';
import type { HostCheckOptions } from './preflight-options.js';

/** Every check that needs only the host's observed state, in report order. */
export function checkHost(
  state: HostState,
  prereqs: PlatformPrerequisites,
  options: HostCheckOptions,
): Finding[] {
  return [
    checkShell(state),
    checkFolders(state),
    checkOsBuild(state, prereqs, options),
    checkContainers(state),
    checkHostname(state, prereqs),
    checkDisk(state),
    checkFirewall(state, prereqs, options),
  ];
}
