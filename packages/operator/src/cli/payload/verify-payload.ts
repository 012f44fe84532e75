import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { CORE_PAYLOAD } from '@wmco/core';
import { parseSha256Sums } from '@wmco/core/internal';
import { readUncompressed } from './payload-file-reader.js';
import { kubeletVersionProblem } from './kubelet-version-check.js';

/** ok; a note that fails nothing (`extra`); or one of the problems that make the payload unusable. */
export type FileStatus =
  'ok' | 'extra' | 'missing' | 'unlisted' | 'modified' | 'wrong-version' | 'unreadable';

export interface FileReport {
  readonly name: string;
  /** Where it is, relative to the payload folder. */
  readonly path?: string;
  readonly status: FileStatus;
  readonly detail: string;
}

export interface PayloadReport {
  readonly dir: string;
  readonly files: readonly FileReport[];
  /** The names of the files that make the payload unusable. */
  readonly bad: readonly string[];
}

const GOOD: ReadonlySet<FileStatus> = new Set(['ok', 'extra']);
const ARCHIVE = /\.tar\.gz$/;

/** Every file below `dir` by payload name (`x.exe` for `x.exe.tar.gz`), except `sha256sum` itself. */
async function filesByName(dir: string): Promise<Map<string, string[]>> {
  const byName = new Map<string, string[]>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const rel = relative(dir, join(e.parentPath, e.name));
    if (rel === 'sha256sum') continue;
    const name = e.name.replace(ARCHIVE, '');
    byName.set(name, [...(byName.get(name) ?? []), rel]);
  }
  return byName;
}

interface Inputs {
  readonly dir: string;
  readonly sums: ReadonlyMap<string, string>;
  readonly present: ReadonlyMap<string, string[]>;
  readonly kubernetesVersion: string;
}

async function checkFile(name: string, input: Inputs): Promise<FileReport> {
  const paths = input.present.get(name) ?? [];
  const want = input.sums.get(name);
  if (paths.length === 0) return { name, status: 'missing', detail: 'not in the payload folder' };
  const path = paths[0]!;
  if (paths.length > 1)
    return { name, path, status: 'unreadable', detail: `present twice: ${paths.join(', ')}` };
  if (want === undefined) return { name, path, status: 'unlisted', detail: 'not listed in sha256sum' };
  let file;
  try {
    file = await readUncompressed(join(input.dir, path), name, name === 'kubelet.exe');
  } catch (err) {
    return { name, path, status: 'unreadable', detail: (err as Error).message };
  }
  if (file.sha256 !== want)
    return { name, path, status: 'modified', detail: `sha256 ${file.sha256}, sha256sum lists ${want}` };
  if (file.bytes === undefined) return { name, path, status: 'ok', detail: 'sha256 matches' };
  const problem = kubeletVersionProblem(file.bytes, input.kubernetesVersion);
  return { name, path, ...problem };
}

/**
 * Checks a payload folder as the operator will read it: every file the core needs and every file
 * `sha256sum` lists is present (plain or as `<name>.tar.gz`), its uncompressed content matches its
 * `sha256sum` entry, and `kubelet.exe`'s version resource, where it has one, names the cluster's
 * Kubernetes minor version. Files neither needed nor listed are reported as `extra`.
 */
export async function verifyPayload(dir: string, kubernetesVersion: string): Promise<PayloadReport> {
  let sums: Map<string, string>;
  try {
    sums = parseSha256Sums(await readFile(join(dir, 'sha256sum'), 'utf8'));
  } catch (err) {
    const detail = (err as Error).message;
    const files: FileReport[] = [{ name: 'sha256sum', status: 'unreadable', detail }];
    return { dir, files, bad: ['sha256sum'] };
  }
  const present = await filesByName(dir);
  const needed = [...new Set([...CORE_PAYLOAD.map((f) => f.name), ...sums.keys()])];
  const input = { dir, sums, present, kubernetesVersion };
  const files: FileReport[] = [];
  for (const name of needed) files.push(await checkFile(name, input));
  for (const [name, paths] of present) {
    if (!needed.includes(name))
      files.push({ name, path: paths.join(', '), status: 'extra', detail: 'neither needed nor listed' });
  }
  return { dir, files, bad: files.filter((f) => !GOOD.has(f.status)).map((f) => f.name) };
}
