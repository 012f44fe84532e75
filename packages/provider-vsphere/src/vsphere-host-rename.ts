import { WmcoError, type HostRename } from '@wmco/core/provider';

const COMPUTER_NAME = /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$/;
/** NetBIOS computer names have at most 15 characters (see the prerequisites). */
const MAX_LENGTH = 15;

/** A Machine name that cannot become a Windows computer name. */
export class MachineNameError extends WmcoError {
  constructor(machineName: string, why: string) {
    super('MachineName', `provider 'vsphere': platform.host-rename: machine name '${machineName}' ${why}`);
  }
}

/**
 * vSphere VMs cloned from a template keep the template's computer name, so the VM is renamed to its
 * Machine's name (`Rename-Computer` and a reboot) before it joins.
 *
 * Decision (differs from upstream on purpose, reference §1.18 quirk 17): upstream checks whether the
 * FQDN *contains* the Machine name, so `winworker-a1` counts as renamed to `worker-a1`. Here the first DNS
 * label must equal the name, ignoring case (Windows computer names are case-insensitive).
 */
export const vsphereHostRename: HostRename = {
  hostnameFor(machineName: string): string {
    if (!COMPUTER_NAME.test(machineName)) {
      throw new MachineNameError(machineName, 'must be letters, digits and inner hyphens');
    }
    if (machineName.length > MAX_LENGTH) {
      throw new MachineNameError(machineName, `is longer than ${MAX_LENGTH} characters`);
    }
    return machineName;
  },
  matches(currentHostname: string, target: string): boolean {
    const firstLabel = currentHostname.trim().split('.')[0] ?? '';
    return firstLabel.toLowerCase() === target.toLowerCase();
  },
};
