import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { modulePathFor } from './protocol/host-paths.js';

/** The PowerShell host module as shipped in this package, with its content hash and host path. */
export interface HostModule {
  readonly text: string;
  readonly bytes: Buffer;
  readonly sha256: string;
  /** Where it lives on a host: hash-named, so a new version never overwrites one in use. */
  readonly remotePath: string;
}

/** `packages/core/assets/WmcoHost.psm1`, located from this file (dist/host/) at run time. */
export const HOST_MODULE_FILE = fileURLToPath(new URL('../../assets/WmcoHost.psm1', import.meta.url));

let cached: Promise<HostModule> | undefined;

/** Reads the shipped module once per process (never at import time). */
export function loadHostModule(): Promise<HostModule> {
  cached ??= readFile(HOST_MODULE_FILE).then((bytes) => {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return { text: bytes.toString('utf8'), bytes, sha256, remotePath: modulePathFor(sha256) };
  });
  return cached;
}
