import { createHash } from 'node:crypto';
import { copyFile, link, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { realisticContent, type GeneratedPayload, type PayloadFileInfo } from './realistic-payload.js';
import { kubeletImage } from './pe-version-image.js';
import { tarGzOf } from './tar-gz.js';

/**
 * The next release's payload when one binary changed: every archive of `base` linked (copied where links
 * are not possible) into `dir`, except `changed`, which gets new content of the same size and
 * compressibility; `sha256sum` lists the new hash. What an upgrade that changes one binary ships.
 */
export async function payloadVariant(
  base: GeneratedPayload,
  dir: string,
  changed: string,
): Promise<GeneratedPayload> {
  if (!base.files.some((f) => f.name === changed))
    throw new Error(`payload variant: no file ${changed} in ${base.dir}`);
  await rm(dir, { recursive: true, force: true });
  const files: PayloadFileInfo[] = [];
  for (const f of base.files) {
    const to = join(dir, f.archive);
    await mkdir(dirname(to), { recursive: true });
    if (f.name !== changed) {
      await link(join(base.dir, f.archive), to).catch(() => copyFile(join(base.dir, f.archive), to));
      files.push(f);
      continue;
    }
    const content = realisticContent(`${f.name} variant`, f.bytes);
    const data = f.name === 'kubelet.exe' ? kubeletImage(content) : content;
    const archive = await tarGzOf(f.name, data);
    await writeFile(to, archive);
    const sha256 = createHash('sha256').update(data).digest('hex');
    files.push({ ...f, compressedBytes: archive.length, sha256 });
  }
  const sums = files.map((f) => `${f.sha256}  /payload/${f.archive.replace(/\.tar\.gz$/, '')}`);
  await writeFile(join(dir, 'sha256sum'), `${sums.join('\n')}\n`);
  const sum = (k: 'bytes' | 'compressedBytes'): number => files.reduce((n, f) => n + f[k], 0);
  return { dir, files, bytes: sum('bytes'), compressedBytes: sum('compressedBytes') };
}
