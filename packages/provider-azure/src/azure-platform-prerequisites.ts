import {
  WINDOWS_SERVER_2019,
  WINDOWS_SERVER_2022,
  WINDOWS_SERVER_2025,
  type PlatformPrerequisites,
} from '@wmco/core/provider';

/**
 * Azure derives the VM's computer name from the Machine name, and Windows computer names are NetBIOS
 * names of at most 15 characters. Machine names are `<MachineSet name>-<5 characters>`, so a MachineSet
 * name may have at most 9.
 */
export const azurePlatformPrerequisites: PlatformPrerequisites = {
  supportedBuilds: [WINDOWS_SERVER_2019, WINDOWS_SERVER_2022, WINDOWS_SERVER_2025],
  machineNameMaxLength: 15,
  machineSetNameMaxLength: 9,
  customVxlanPortRequired: false,
  notes: [
    'Windows Machine names must be at most 15 characters: keep Windows MachineSet names at most 9 characters.',
    'The image must provision the capi user that the machine-api uses for SSH.',
  ],
};
