import { createHash } from 'node:crypto';
import { stagedArchivePathFor, stagedPathFor } from '@wmco/core';
import { readTarGz } from '../payload/tar-gz.js';
import { baseName } from './windows-path.js';
import type { WindowsModel } from './windows-model.js';

// Extraction is a pure function of the archive's bytes, so its result is shared between simulated hosts
// (many hosts receive the same archive; holding each host's copy would cost gigabytes). Weak: a file no
// host holds any more is freed.
const extracted = new Map<string, WeakRef<Buffer>>();
// Extractions under way, so that hosts receiving the same archive at the same time share one.
const pending = new Map<string, Promise<Buffer | undefined>>();

async function extract(archive: Buffer, name: string): Promise<Buffer | undefined> {
  const files = await readTarGz(archive);
  // NTFS is case-insensitive: bsdtar's `kubelet.exe` and `Kubelet.exe` land on the same file.
  return [...files].find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
}

async function memberOf(archive: Buffer, name: string): Promise<Buffer | undefined> {
  const key = `${createHash('sha256').update(archive).digest('hex')}/${name.toLowerCase()}`;
  const known = extracted.get(key)?.deref();
  if (known) return known;
  let running = pending.get(key);
  if (!running) {
    running = extract(archive, name).finally(() => pending.delete(key));
    pending.set(key, running);
  }
  const found = await running;
  if (found) extracted.set(key, new WeakRef(found));
  return found;
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
    let data: Buffer | undefined;
    try {
      data = await memberOf(archive, name);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new Error(`tar.exe could not extract the archive for '${path}' (exit 1): ${why}`, { cause: err });
    }
    if (!data) throw new Error(`the archive for '${path}' does not hold a file named '${name}'`);
    m.files.write(staged, data);
  } finally {
    m.files.remove(archivePath);
  }
}
