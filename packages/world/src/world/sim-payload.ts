import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORE_PAYLOAD } from '@wmco/core';
import { kubeletImage, tarGzOf } from '@wmco/sim';

/** Platform payload files a provider may ask for (AWS ECR plugin, Azure cloud node manager). */
const PLATFORM_FILES = ['ecr-credential-provider.exe', 'azure-cloud-node-manager.exe'];

/** `upstream`: every file a `.tar.gz` (the operator image's layout); `plain`: the files themselves. */
export type PayloadLayout = 'upstream' | 'plain';

/**
 * windows_exporter's web config as the operator image ships it (reference §1.16): the files the operator
 * writes from the `windows-machine-config-operator-tls` Secret. Real content, because the simulated
 * exporter reads it to serve TLS.
 */
export const EXPORTER_WEB_CONFIG = [
  'tls_server_config:',
  "  cert_file: 'C:\\k\\tls\\certs\\tls.crt'",
  "  key_file: 'C:\\k\\tls\\certs\\tls.key'",
  '',
].join('\n');

/**
 * The payload's PowerShell files as stand-ins that run (the PowerShell host engine executes them): the
 * Defender exclusion with upstream's behaviour (reference wmco-upstream §1.4: when process MsMpEng runs,
 * `Add-MpPreference -ExclusionProcess <BinPath>`), and an hns.psm1 that defines nothing (the simulated
 * host's HNS commands answer).
 */
const POWERSHELL_STAND_INS: Record<string, string> = {
  'windows-defender-exclusion.ps1': [
    '# wmco-sim stand-in for upstream windows-defender-exclusion.ps1',
    'param([Parameter(Mandatory = $true)][string] $BinPath)',
    'if (Get-Process -Name MsMpEng -ErrorAction SilentlyContinue) { Add-MpPreference -ExclusionProcess $BinPath }',
    '',
  ].join('\r\n'),
  'hns.psm1': '# wmco-sim stand-in for upstream hns.psm1: the simulated host answers the HNS commands\r\n',
};

/** The small stand-in content of one payload file (deterministic). */
export function simPayloadContent(name: string, bytesPerFile: number, tag?: string): Buffer {
  if (name === 'windows-exporter-webconfig.yaml')
    return Buffer.from(`${EXPORTER_WEB_CONFIG}${tag === undefined ? '' : `# ${tag}\n`}`);
  const script = POWERSHELL_STAND_INS[name];
  if (script !== undefined) return Buffer.from(`${script}${tag === undefined ? '' : `# ${tag}\r\n`}`);
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
