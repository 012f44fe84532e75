import { WmcoError, type HostRename } from '@wmco/core/provider';

/** One DNS label: letters, digits and inner hyphens, at most 63 characters. */
const COMPUTER_NAME = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** A Machine name that cannot become a Windows computer name. */
export class MachineNameError extends WmcoError {
  constructor(machineName: string) {
    super(
      'MachineName',
      `provider 'nutanix': platform.host-rename: machine name '${machineName}' must be one DNS label ` +
        '(letters, digits and inner hyphens, at most 63 characters)',
    );
  }
}

/**
 * Nutanix VMs created from an image keep the image's computer name, so the VM is renamed to its Machine's
 * name before it joins.
 *
 * Decision (differs from upstream on purpose, reference §1.18 quirk 17): upstream checks whether the
 * FQDN *contains* the Machine name; here the first DNS label must equal it, ignoring case. Nutanix
 * documents no 15-character limit, so names up to a DNS label's 63 characters are accepted (Windows then
 * truncates only the NetBIOS name).
 */
export const nutanixHostRename: HostRename = {
  hostnameFor(machineName: string): string {
    if (!COMPUTER_NAME.test(machineName)) throw new MachineNameError(machineName);
    return machineName;
  },
  matches(currentHostname: string, target: string): boolean {
    const firstLabel = currentHostname.trim().split('.')[0] ?? '';
    return firstLabel.toLowerCase() === target.toLowerCase();
  },
};
