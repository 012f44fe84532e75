import type { UserDataFormat } from '@wmco/core/provider';

/**
 * KubeVirt hands user data to the VM through a cloudInitNoCloud or cloudInitConfigDrive volume, and
 * cloudbase-init runs it. cloudbase-init picks the interpreter from the first line: `#ps1_sysnative`
 * runs the rest with the 64-bit PowerShell (`#ps1` would run the 32-bit one on a 64-bit host).
 */
export const kubevirtUserDataFormat: UserDataFormat = {
  extraSteps: [],
  wrap: (script) => `#ps1_sysnative\n${script}`,
};
