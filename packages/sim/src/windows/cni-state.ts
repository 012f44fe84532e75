import type { WindowsModel } from './windows-model.js';

/** The CNI plugins' state folder (host-local IPAM allocations), as WmcoHost.psm1's `$script:CniStateDir`. */
export const CNI_STATE_DIR = 'C:\\var\\lib\\cni';

/**
 * Reset-WmcoCniState on the model: the folder and everything under it go; a link there is removed as a
 * link, its target left (Remove-WmcoTree never follows one); a missing folder is fine.
 */
export function resetCniState(m: WindowsModel): void {
  if (m.files.linkAt(CNI_STATE_DIR) === undefined) {
    if (!m.files.isDirectory(CNI_STATE_DIR)) return;
    for (const p of m.files.descendants(CNI_STATE_DIR)) m.files.remove(p);
  }
  m.files.remove(CNI_STATE_DIR);
}
