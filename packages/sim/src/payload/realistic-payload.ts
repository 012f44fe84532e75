import { createCipheriv, createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { kubeletImage } from './pe-version-image.js';
import { tarGzOf } from './tar-gz.js';

/**
 * Upstream's `/payload` file list (reference wmco-upstream §3.6) with sizes of the order of its release
 * binaries (550 MB in all; estimates, not measured from an image). The generated network-conf.ps1 is
 * left out: the operator writes it at start-up.
 */
export const UPSTREAM_PAYLOAD_FILES: readonly { readonly path: string; readonly mib: number }[] = [
  { path: 'windows-instance-config-daemon.exe', mib: 74 },
  { path: 'kube-node/kubelet.exe', mib: 122 },
  { path: 'kube-node/kube-proxy.exe', mib: 60 },
  { path: 'kube-node/kube-log-runner.exe', mib: 2 },
  { path: 'containerd/containerd.exe', mib: 52 },
  { path: 'containerd/containerd-shim-runhcs-v1.exe', mib: 15 },
  { path: 'containerd/containerd_conf.toml', mib: 0.004 },
  { path: 'powershell/gcp-get-hostname.ps1', mib: 0.002 },
  { path: 'powershell/windows-defender-exclusion.ps1', mib: 0.002 },
  { path: 'powershell/hns.psm1', mib: 0.02 },
  { path: 'cni/host-local.exe', mib: 4 },
  { path: 'cni/win-bridge.exe', mib: 5 },
  { path: 'cni/win-overlay.exe', mib: 5 },
  { path: 'hybrid-overlay-node.exe', mib: 62 },
  { path: 'csi-proxy/csi-proxy.exe', mib: 17 },
  { path: 'windows-exporter/windows_exporter.exe', mib: 27 },
  { path: 'windows-exporter/windows-exporter-webconfig.yaml', mib: 0.001 },
  { path: 'ecr-credential-provider.exe', mib: 20 },
  { path: 'azure-cloud-node-manager.exe', mib: 62 },
];

/** Bump when the content model changes, so cached payloads are regenerated. */
const GENERATOR_VERSION = 2;
/** Share of 16 KiB segments that are incompressible (the rest is code-like); tuned for gzip -6 ≈ 0.37. */
const RANDOM_SHARE = 0.19;
const SEGMENT = 16 * 1024;

/**
 * Deterministic bytes with a Go binary's compressibility under gzip (about 37 %): 16 KiB segments that
 * are either keystream (like compressed resources and tables) or 8-byte tokens from a small per-file
 * dictionary picked with a skewed distribution (like code). AES-CTR keyed by the file name is the source.
 */
export function realisticContent(name: string, size: number): Buffer {
  const key = createHash('sha256').update(`wmco-realistic-payload ${name}`).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  const next = (n: number): Buffer => cipher.update(Buffer.alloc(n));
  const dictionary = next(256 * 8);
  const out = Buffer.allocUnsafe(size);
  for (let at = 0; at < size; at += SEGMENT) {
    const n = Math.min(SEGMENT, size - at);
    const r = next(n);
    if (r[0]! < RANDOM_SHARE * 256) {
      r.copy(out, at);
      continue;
    }
    for (let i = 0; i < n; i += 8) {
      const token = r[i]! & (r[i + 1] ?? 0);
      dictionary.copy(out, at + i, token * 8, token * 8 + Math.min(8, n - i));
    }
  }
  return out;
}

export interface PayloadFileInfo {
  readonly name: string;
  readonly archive: string;
  readonly bytes: number;
  readonly compressedBytes: number;
  readonly sha256: string;
}

export interface GeneratedPayload {
  readonly dir: string;
  /** Each file: its name, sizes, hash (uncompressed) and its archive's path relative to `dir`. */
  readonly files: readonly PayloadFileInfo[];
  readonly bytes: number;
  readonly compressedBytes: number;
}

async function generate(dir: string, scale: number): Promise<GeneratedPayload['files']> {
  const files: PayloadFileInfo[] = [];
  for (const f of UPSTREAM_PAYLOAD_FILES) {
    const name = f.path.split('/').pop()!;
    const content = realisticContent(name, Math.max(1, Math.round(f.mib * scale * 2 ** 20)));
    // kubelet.exe carries a version resource, as the release's binary does (`wmco payload verify`).
    const data = name === 'kubelet.exe' ? kubeletImage(content) : content;
    const archive = await tarGzOf(name, data);
    await mkdir(dirname(join(dir, f.path)), { recursive: true });
    await writeFile(join(dir, `${f.path}.tar.gz`), archive);
    const sha256 = createHash('sha256').update(data).digest('hex');
    const info = { name, archive: `${f.path}.tar.gz`, bytes: data.length, compressedBytes: archive.length };
    files.push({ ...info, sha256 });
  }
  const sums = UPSTREAM_PAYLOAD_FILES.map((f, i) => `${files[i]!.sha256}  /payload/${f.path}`);
  await writeFile(join(dir, 'sha256sum'), `${sums.join('\n')}\n`);
  return files;
}

/**
 * Upstream's payload layout (every file a `.tar.gz` under its folder, `sha256sum` of the uncompressed
 * files) with realistic sizes and content, generated once under `cacheDir` and reused while the generator
 * version and `scale` (1 = 550 MB) are the same. Generation writes a temporary folder and renames it, so
 * an interrupted run leaves no half payload in the cache.
 */
export async function realisticPayload(cacheDir: string, scale = 1): Promise<GeneratedPayload> {
  const dir = join(cacheDir, `realistic-payload-v${GENERATOR_VERSION}-x${scale}`);
  const index = join(dir, 'generated.json');
  let files: GeneratedPayload['files'];
  try {
    files = JSON.parse(await readFile(index, 'utf8')) as GeneratedPayload['files'];
    await stat(join(dir, 'sha256sum'));
  } catch {
    const temporary = `${dir}.tmp-${process.pid}`;
    await rm(temporary, { recursive: true, force: true });
    await mkdir(temporary, { recursive: true });
    files = await generate(temporary, scale);
    await writeFile(join(temporary, 'generated.json'), JSON.stringify(files));
    await rm(dir, { recursive: true, force: true });
    await rename(temporary, dir);
  }
  const sum = (k: 'bytes' | 'compressedBytes'): number => files.reduce((n, f) => n + f[k], 0);
  return { dir, files, bytes: sum('bytes'), compressedBytes: sum('compressedBytes') };
}
