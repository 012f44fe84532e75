import { WINDOWS_SERVER_2022, WINDOWS_SERVER_2025, type PlatformPrerequisites } from '@wmco/core/provider';

/** What GCP asks of a Windows image (reference §2). */
export const gcpPlatformPrerequisites: PlatformPrerequisites = {
  supportedBuilds: [
    // OS build 20348.681 (KB5012637, April 2022), the minimum the OpenShift docs for Windows containers give here.
    { ...WINDOWS_SERVER_2022, minRevision: 681, note: 'needs KB5012637 (OS build 20348.681) or later' },
    WINDOWS_SERVER_2025,
  ],
  customVxlanPortRequired: false,
  notes: [
    'Use the windows-2022-core or windows-2025-core image family.',
    'Node names are the metadata hostname cut to 63 characters (a single DNS label).',
  ],
};
