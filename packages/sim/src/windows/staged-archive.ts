import { HostPaths, stagedArchivePathFor, stagedPathFor } from '@wmco/core/internal';
import { extractArchive } from './archive-extraction.js';
import { baseName } from './windows-path.js';
import type { WindowsModel } from './windows-model.js';

const STAGED_ARCHIVE = /^[0-9a-f]{64}\.tar\.gz$/;

/**
 * A file just arrived at `path` (an SFTP rename, the last step of an upload). When it is a staged
 * `<sha>.tar.gz`, its extraction starts now, on the extraction thread, so that the apply that places it
 * (usually a PowerShell start later) finds the result ready. Nothing on the host changes: the apply still
 * extracts, checks and cleans up as `expandStagedArchive` says, and a bad archive fails there.
 */
export function prefetchStagedArchive(m: WindowsModel, path: string): void {
  const full = m.files.resolve(path);
  const parent = full.slice(0, full.lastIndexOf('\\'));
  if (parent.toLowerCase() !== HostPaths.staging.toLowerCase() || !STAGED_ARCHIVE.test(baseName(full)))
    return;
  const archive = m.files.read(full);
  // The failure is the apply's to report (extractArchive answers it again for the same Buffer).
  if (archive) extractArchive(archive).catch(() => undefined);
}

/**
 * Expand-WmcoStagedArchive: when only `<sha>.tar.gz` is staged, really gunzip and untar it and stage the
 * entry named like the destination as `<sha>`; placeFile then checks its hash. The archive is removed
 * whatever happens, so a bad one leaves nothing behind and the next round uploads again.
 */
export async function expandStagedArchive(m: WindowsModel, path: string, sha: string): Promise<void> {
  const staged = stagedPathFor(sha);
  const archivePath = stagedArchivePathFor(sha);
  const archive = m.files.read(archivePath);
  if (m.files.isFile(staged) || archive === undefined) return;
  const name = baseName(m.files.resolve(path));
  try {
    let files;
    try {
      files = await extractArchive(archive);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new Error(`tar.exe could not extract the archive for '${path}' (exit 1): ${why}`, { cause: err });
    }
    // NTFS is case-insensitive: bsdtar's `kubelet.exe` and `Kubelet.exe` land on the same file.
    const data = [...files].find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
    if (!data) throw new Error(`the archive for '${path}' does not hold a file named '${name}'`);
    m.files.write(staged, data);
  } finally {
    m.files.remove(archivePath);
  }
}
