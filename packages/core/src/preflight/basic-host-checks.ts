import type { HostState } from '../host/protocol/index.js';
import { fail, pass, warn, type Finding } from './finding.js';
import { MIN_FREE_DISK_BYTES, RECOMMENDED_FREE_DISK_BYTES } from './preflight-options.js';

/** OpenSSH's default shell: cmd.exe and PowerShell both work (the adapter starts powershell.exe itself). */
export function checkShell(state: HostState): Finding {
  const name = state.defaultShell === 'cmd' ? 'cmd.exe' : 'PowerShell';
  return pass('shell', `OpenSSH default shell is ${name} (both are supported)`);
}

/**
 * The Containers feature. Missing is a warning, not a failure: the join installs it and restarts the host
 * once, which takes minutes and interrupts whatever else runs there.
 */
export function checkContainers(state: HostState): Finding {
  if (state.containersFeature) return pass('containers', 'the Containers feature is installed');
  return warn(
    'containers',
    'the Containers feature is not installed: the join installs it and restarts the host',
    'to restart on your own schedule instead, run Install-WindowsFeature -Name Containers and restart the host before adding it',
  );
}

function gib(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
}

/** Free space on C:: fail under 10 GiB, warn under 20 GiB. */
export function checkDisk(state: HostState): Finding {
  const free = state.freeDiskBytes;
  const fix = `free space on C: (at least ${gib(RECOMMENDED_FREE_DISK_BYTES)}), e.g. Dism /Online /Cleanup-Image /StartComponentCleanup, or extend the volume`;
  if (free < MIN_FREE_DISK_BYTES)
    return fail('disk', `${gib(free)} free on C:, below the minimum of ${gib(MIN_FREE_DISK_BYTES)}`, fix);
  if (free < RECOMMENDED_FREE_DISK_BYTES)
    return warn(
      'disk',
      `${gib(free)} free on C:, below the recommended ${gib(RECOMMENDED_FREE_DISK_BYTES)}`,
      fix,
    );
  return pass('disk', `${gib(free)} free on C:`);
}
