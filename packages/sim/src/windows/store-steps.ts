import type { PlanStep } from '@wmco/core';
import { resetCniState } from './cni-state.js';
import { removeClientCertificate } from './client-certificates.js';
import { removePrunedFolder } from './pruned-folders.js';
import type { WindowsModel } from './windows-model.js';

/**
 * Invoke-WmcoStep for the steps that remove folders or change the machine Root store: `removeDirectory`,
 * `resetCniState`, `removeClientCertificate`, `importRootCertificates`, `removeRootCertificate`. None needs a restart (false).
 */
export function applyStoreStep(m: WindowsModel, step: PlanStep): boolean {
  switch (step.kind) {
    case 'removeDirectory':
      removePrunedFolder(m, step.path);
      return false;
    case 'resetCniState':
      resetCniState(m);
      return false;
    case 'removeClientCertificate':
      removeClientCertificate(m, step.name);
      return false;
    case 'importRootCertificates':
      m.rootStore.importFromBundle(m.files.read(step.path), step.path, step.thumbprints);
      return false;
    case 'removeRootCertificate':
      m.rootStore.removeManaged(step.thumbprint);
      return false;
    default:
      throw new Error(`unknown plan step kind '${step.kind}'`);
  }
}
