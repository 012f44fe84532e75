import { stat } from 'node:fs/promises';
import { HostUploadError } from '../errors.js';
import { stagedArchivePathFor, stagedPathFor } from '../protocol/index.js';
import type { UploadFile } from '../windows-host.js';
import type { SshSession } from './ssh-session.js';

/** Stages one payload file by SFTP unless a staged copy of its size is there; true when it was sent. */
export async function stageFile(session: SshSession, file: UploadFile, address: string): Promise<boolean> {
  const packed = !Buffer.isBuffer(file.source) && file.source.format === 'tar.gz';
  // A compressed file is staged as it is (`<sha>.tar.gz`); apply extracts it and checks the hash.
  const target = packed ? stagedArchivePathFor(file.sha256) : stagedPathFor(file.sha256);
  const size = Buffer.isBuffer(file.source) ? file.source.length : (await stat(file.source.localPath)).size;
  // Staged files arrive by rename only when complete, and apply re-hashes them; the size is a cheap guard.
  const present = await session.size(target);
  if (present === size) return false;
  // A staged file of the wrong size is damaged; SFTP rename will not replace it, so remove it.
  if (present !== undefined) await session.remove(target);
  try {
    await session.put(file.source, `${target}.part`, target);
  } catch (err) {
    throw new HostUploadError(address, `${file.sha256}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return true;
}
