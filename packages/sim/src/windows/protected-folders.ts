import { HostPaths } from '@wmco/core/internal';
import { type HostAction } from '@wmco/core';
import type { WindowsModel } from './windows-model.js';

/**
 * Protect-WmcoDirectory on the model: the folder is created when missing and restricted to SYSTEM and
 * Administrators; true when its ACL had to change.
 */
export function protectFolder(m: WindowsModel, path: string): boolean {
  m.files.mkdirp(path);
  if (m.files.isRestricted(path)) return false;
  m.files.restrict(path);
  return true;
}

/** Initialize-WmcoDirectories: every operator root protected before any apply step runs. */
export function protectOperatorRoots(m: WindowsModel): HostAction[] {
  return HostPaths.protectedRoots.flatMap((root) =>
    protectFolder(m, root) ? [{ kind: 'protectDirectory', target: root }] : [],
  );
}

/** The prepare command (hostPrepareScript): the working area and its staging folder, protected. */
export function prepareWorkingArea(m: WindowsModel): void {
  protectFolder(m, HostPaths.root);
  protectFolder(m, HostPaths.staging);
}
