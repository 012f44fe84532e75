import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORE_PAYLOAD } from '@wmco/core';
import { kubeletImage, payloadText, tarGzOf } from '@wmco/sim';

/** Platform payload files a provider may ask for (AWS ECR plugin, Azure cloud node manager). */
const PLATFORM_FILES = ['ecr-credential-provider.exe', 'azure-cloud-node-manager.exe'];

/** `upstream`: every file a `.tar.gz` (the operator image's layout); `plain`: the files themselves. */
export type PayloadLayout = 'upstream' | 'plain';

/** The small stand-in content of one payload file (deterministic). */
export function simPayloadContent(name: string, bytesPerFile: number, tag?: string): Buffer {
  const text = payloadText(name);
  const eol = name.endsWith('.yaml') ? '\n' : '\r\n';
  if (text !== undefined) return Buffer.from(`${text}${tag === undefined ? '' : `# ${tag}${eol}`}`);
  const seed = createHash('sha256').update(name).digest();
  const content = Buffer.alloc(bytesPerFile);
  for (let i = 0; i < content.length; i += seed.length) seed.copy(content, i);
  content.write(`wmco-sim ${name}${tag === undefined ? '' : ` ${tag}`}\n`, 0);
  // kubelet.exe carries the simulated cluster's release in a version resource, as the real binary does.
  return name === 'kubelet.exe' ? kubeletImage(content) : content;
}

/**
 * A payload directory for the simulated world: every file the operator ships, as small stand-ins
 * (`bytesPerFile` each, deterministic content), and the `sha256sum` file listing them (hashes of the
 * uncompressed files), laid out as the operator image's `/payload` is.
 */
export async function writeSimPayload(
  bytesPerFile = 4096,
  dir?: string,
  layout: PayloadLayout = 'upstream',
  /** Files whose content differs by this tag, as one binary differs between two operator versions. */
  variant?: { readonly files: readonly string[]; readonly tag: string },
): Promise<string> {
  const root = dir ?? (await mkdtemp(join(tmpdir(), 'wmco-payload-')));
  await mkdir(root, { recursive: true });
  const names = [...CORE_PAYLOAD.map((f) => f.name), ...PLATFORM_FILES];
  const sums: string[] = [];
  for (const name of names) {
    const tag = variant?.files.includes(name) ? variant.tag : undefined;
    const content = simPayloadContent(name, bytesPerFile, tag);
    if (layout === 'plain') await writeFile(join(root, name), content);
    else await writeFile(join(root, `${name}.tar.gz`), await tarGzOf(name, content));
    sums.push(`${createHash('sha256').update(content).digest('hex')}  ${name}`);
  }
  await writeFile(join(root, 'sha256sum'), `${sums.join('\n')}\n`);
  return root;
}
