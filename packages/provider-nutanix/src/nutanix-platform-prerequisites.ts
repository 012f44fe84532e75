import { WINDOWS_SERVER_2022, WINDOWS_SERVER_2025, type PlatformPrerequisites } from '@wmco/core/provider';

/** What Nutanix asks of a Windows image and of Windows MachineSets (reference §2). */
export const nutanixPlatformPrerequisites: PlatformPrerequisites = {
  supportedBuilds: [
    // OS build 20348.681 (KB5012637, April 2022), the minimum the OpenShift docs for Windows containers give for GCP, vSphere and Nutanix.
    { ...WINDOWS_SERVER_2022, minRevision: 681, note: 'needs KB5012637 (OS build 20348.681) or later' },
    WINDOWS_SERVER_2025,
  ],
  customVxlanPortRequired: false,
  notes: [
    'The api-int DNS record must resolve from the Windows VMs.',
    'Windows MachineSets carry credentialsSecret: nutanix-credentials for the machine-api; wmco does not read it.',
  ],
};
