import {
  WINDOWS_SERVER_2019,
  WINDOWS_SERVER_2022,
  WINDOWS_SERVER_2025,
  type PlatformPrerequisites,
} from '@wmco/core/provider';

/**
 * Platform None and BareMetal (user-provisioned infrastructure, BYOH only). Any Windows Server release the
 * kubelet supports works; nothing derives names from Machines, and the VXLAN port is the cluster's choice.
 */
export const nonePlatformPrerequisites: PlatformPrerequisites = {
  supportedBuilds: [WINDOWS_SERVER_2019, WINDOWS_SERVER_2022, WINDOWS_SERVER_2025],
  customVxlanPortRequired: false,
  notes: [
    'Only BYOH instances (the windows-instances ConfigMap) are supported: there is no Machine API on this platform.',
    'Give each host a PTR record, or make sure its hostname is its node name: CSR approval matches the exact name.',
    'Windows Server 2019 cannot use a custom hybrid-overlay VXLAN port.',
  ],
};
