import type { UserDataFormat } from '@wmco/core/provider';

/**
 * GCE runs the `windows-startup-script-ps1` metadata value as a PowerShell script: raw, no tags
 * (upstream `processTags(GCP, s) == s`).
 */
export const gcpUserDataFormat: UserDataFormat = {
  extraSteps: [],
  wrap: (script) => script,
};
