import { isPrunablePath } from '@wmco/core/internal';
import { type ObserveRequest } from '@wmco/core';
import type { WindowsModel } from './windows-model.js';

/** `children` of observe, as Get-WmcoChildFolders reports them: sub-folder names of each listed folder. */
export function childFolders(m: WindowsModel, req: ObserveRequest): Record<string, string[]> | undefined {
  if (req.listDirectories === undefined) return undefined;
  const out: Record<string, string[]> = {};
  for (const dir of req.listDirectories.filter((d) => m.files.isDirectory(d))) {
    out[dir] = m.files
      .list(dir)
      .filter((e) => e.directory)
      .map((e) => e.name)
      .sort();
  }
  return out;
}

/**
 * Remove-WmcoPrunedFolder: one folder directly under a prunable root, deepest entry first, a link removed
 * as a link (its target is left alone). A folder that is already gone is fine.
 */
export function removePrunedFolder(m: WindowsModel, path: string): void {
  if (!isPrunablePath(path)) throw new Error(`'${path}' is not a folder directly under a prunable root`);
  if (m.files.linkAt(path) === undefined) {
    if (!m.files.isDirectory(path)) return;
    for (const p of m.files.descendants(path)) m.files.remove(p);
  }
  m.files.remove(path);
}
