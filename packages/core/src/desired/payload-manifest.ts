import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { PayloadFile } from '../provider/types/payload-file.js';
import { parseSha256Sums } from './sha256sum-file.js';

/** One payload file and where it goes on the host. */
export interface PayloadEntry {
  readonly name: string;
  /** Path on the operator, relative to the payload directory. */
  readonly source: string;
  /** Absolute Windows path on the host. */
  readonly destination: string;
  /** SHA-256 of the file as the host must hold it (uncompressed), from `sha256sum`. */
  readonly sha256: string;
  /** True when the payload holds it as `<name>.tar.gz` (upstream's image layout). */
  readonly compressed: boolean;
}

/**
 * The core's payload files and their host directories (reference §3.6 `getFilesToTransfer`). Files that
 * are generated rather than shipped (network-conf.ps1, containerd_conf.toml, platform scripts) and those
 * that belong to a platform (ECR plugin, Azure cloud node manager: the capabilities' `payload()`) are
 * not listed here.
 */
export const CORE_PAYLOAD: readonly PayloadFile[] = [
  ...['windows-defender-exclusion.ps1', 'hns.psm1'].map((name) => ({ name, directory: 'C:\\Temp' })),
  ...[
    'kubelet.exe',
    'kube-proxy.exe',
    'kube-log-runner.exe',
    'hybrid-overlay-node.exe',
    'windows_exporter.exe',
    'csi-proxy.exe',
  ].map((name) => ({ name, directory: 'C:\\k' })),
  ...['host-local.exe', 'win-bridge.exe', 'win-overlay.exe'].map((name) => ({
    name,
    directory: 'C:\\k\\cni',
  })),
  ...['containerd.exe', 'containerd-shim-runhcs-v1.exe'].map((name) => ({
    name,
    directory: 'C:\\k\\containerd',
  })),
  { name: 'windows-exporter-webconfig.yaml', directory: 'C:\\k\\tls' },
];

async function listFiles(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const byName = new Map<string, string>();
  for (const e of entries.filter((x) => x.isFile())) {
    const rel = relative(dir, join(e.parentPath, e.name));
    if (byName.has(e.name))
      throw new Error(`payload ${dir}: ${e.name} is present twice (${byName.get(e.name)}, ${rel})`);
    byName.set(e.name, rel);
  }
  return byName;
}

async function sha256Of(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

/** The entry for one file, or what is wrong with it. */
async function payloadEntry(
  dir: string,
  file: PayloadFile,
  found: { sums: Map<string, string>; present: Map<string, string> },
): Promise<PayloadEntry | string> {
  const sha256 = found.sums.get(file.name);
  const plain = found.present.get(file.name);
  const source = plain ?? found.present.get(`${file.name}.tar.gz`);
  if (sha256 === undefined && source === undefined) {
    return `${file.name} is not listed in sha256sum; ${file.name} is missing`;
  }
  if (sha256 === undefined) return `${file.name} is not listed in sha256sum`;
  if (source === undefined) return `${file.name} is missing`;
  if (plain !== undefined && (await sha256Of(join(dir, plain))) !== sha256) {
    return `${file.name} does not match its sha256sum entry`;
  }
  const destination = `${file.directory.replace(/\\$/, '')}\\${file.name}`;
  return { name: file.name, source, destination, sha256, compressed: plain === undefined };
}

/**
 * Reads `dir` and its `sha256sum` into the list of files a host must hold: the core payload plus
 * `extra` (the platform's). Every file must be in the directory (plain, or as `<name>.tar.gz`) and listed
 * in `sha256sum`; a plain file must match its sum. All problems are reported together.
 */
export async function readPayloadManifest(
  dir: string,
  extra: readonly PayloadFile[] = [],
): Promise<PayloadEntry[]> {
  let sumsText: string;
  try {
    sumsText = await readFile(join(dir, 'sha256sum'), 'utf8');
  } catch (err) {
    throw new Error(`payload ${dir}: cannot read sha256sum (${(err as Error).message})`, { cause: err });
  }
  const sums = parseSha256Sums(sumsText);
  const present = await listFiles(dir);
  const problems: string[] = [];
  const entries: PayloadEntry[] = [];
  for (const file of [...CORE_PAYLOAD, ...extra]) {
    const entry = await payloadEntry(dir, file, { sums, present });
    if (typeof entry === 'string') problems.push(entry);
    else entries.push(entry);
  }
  if (problems.length > 0) throw new Error(`payload ${dir}: ${problems.join('; ')}`);
  return entries;
}
