import { HostPaths } from '@wmco/core/internal';
import { type HostAction } from '@wmco/core';
import { folderProblem, formatFolderProblem } from './folder-check.js';
import type { WindowsModel } from './windows-model.js';

/**
 * Protect-WmcoDirectory on the model: an existing folder the operator must not use (folder-check.ts) is
 * refused with the module's message; a missing one is created with the operator's ACL; any other gets that
 * ACL and everything below inherits it. True when something changed.
 */
export function protectFolder(m: WindowsModel, path: string): boolean {
  const problem = folderProblem(m.files, path);
  if (problem) throw new Error(formatFolderProblem(problem));
  if (!m.files.isDirectory(path)) {
    // DirectoryInfo.Create(DirectorySecurity): made with the ACL, never open.
    m.files.mkdirp(path);
    m.files.restrict(path);
    return true;
  }
  if (m.files.hasOperatorSecurity(path)) return false;
  m.files.resetSecurityBelow(path);
  m.files.restrict(path);
  return true;
}

/** Initialize-WmcoDirectories: every operator root protected before any apply step runs. */
export function protectOperatorRoots(m: WindowsModel): HostAction[] {
  return HostPaths.protectedRoots.flatMap((root) =>
    protectFolder(m, root) ? [{ kind: 'protectDirectory', target: root }] : [],
  );
}

/**
 * Initialize-WmcoWorkArea (first contact, before the module is written): the working area and its staging
 * folder checked and protected; the refusal's one line, or undefined.
 */
export function workAreaRefusal(m: WindowsModel): string | undefined {
  for (const folder of [HostPaths.root, HostPaths.staging]) {
    const problem = folderProblem(m.files, folder);
    if (problem) return formatFolderProblem(problem);
    protectFolder(m, folder);
  }
  return undefined;
}
