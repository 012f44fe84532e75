import { WINDOWS_SERVER_2022, WINDOWS_SERVER_2025, type PlatformPrerequisites } from '@wmco/core/provider';

/** What vSphere asks of a Windows template and of Windows MachineSets (reference §2). */
export const vspherePlatformPrerequisites: PlatformPrerequisites = {
  supportedBuilds: [
    // OS build 20348.681 (KB5012637, April 2022), the minimum the OpenShift docs for Windows containers give here.
    { ...WINDOWS_SERVER_2022, minRevision: 681, note: 'needs KB5012637 (OS build 20348.681) or later' },
    WINDOWS_SERVER_2025,
  ],
  machineNameMaxLength: 15,
  machineSetNameMaxLength: 9,
  // The hybrid overlay must not use VXLAN port 4789, which NSX and ESXi claim.
  customVxlanPortRequired: true,
  notes: [
    'Set a custom hybridOverlayVXLANPort in the cluster network operator config: 4789 does not work on vSphere.',
    'The api-int DNS record must resolve from the Windows VMs.',
    'Exclude the HNS adapters from VMware Tools (exclude-nics= in tools.conf), or the VM reports wrong IPs.',
    'Windows Machine names must be at most 15 characters: keep Windows MachineSet names at most 9 characters.',
  ],
};
