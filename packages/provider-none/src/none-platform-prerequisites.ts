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
    'No PTR record is needed: the operator decides each node name at join (the host name, lower-cased) and approves only the CSRs of that registration, without DNS.',
    'Windows Server 2019 cannot use a custom hybrid-overlay VXLAN port.',
  ],
};
