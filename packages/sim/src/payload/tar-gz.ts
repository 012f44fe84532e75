import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

const BLOCK = 512;
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

function octal(field: Buffer, what: string): number {
  const text = field.toString('latin1').replace(/\0.*$/s, '').trim();
  if (!/^[0-7]*$/.test(text)) throw new Error(`not a tar archive: bad ${what} field '${text}'`);
  return text === '' ? 0 : parseInt(text, 8);
}

function text(field: Buffer): string {
  const end = field.indexOf(0);
  return field.toString('utf8', 0, end < 0 ? field.length : end);
}

function checksumOk(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum === octal(header.subarray(148, 156), 'checksum');
}

/** A pax extended header's `path` record, if it has one (`<len> path=<value>\n` records). */
function paxPath(body: Buffer): string | undefined {
  const match = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
  return match?.[1];
}

interface TarEntry {
  readonly type: string;
  readonly name: string;
  readonly body: Buffer;
  /** Where the next header starts. */
  readonly next: number;
}

/** The entry whose header starts at `at`, or undefined at the end-of-archive marker. */
function entryAt(archive: Buffer, at: number): TarEntry | undefined {
  const header = archive.subarray(at, at + BLOCK);
  if (header.every((b) => b === 0)) return undefined;
  if (!checksumOk(header)) throw new Error(`not a tar archive: bad header checksum at byte ${at}`);
  const size = octal(header.subarray(124, 136), 'size');
  const start = at + BLOCK;
  if (start + size > archive.length) throw new Error('truncated tar archive');
  const ustar = header.toString('latin1', 257, 263) === 'ustar\0';
  const prefix = ustar ? text(header.subarray(345, 500)) : '';
  const base = text(header.subarray(0, 100));
  return {
    type: String.fromCharCode(header[156]!),
    name: prefix ? `${prefix}/${base}` : base,
    body: archive.subarray(start, start + size),
    next: start + Math.ceil(size / BLOCK) * BLOCK,
  };
}

/** The name a pax (`x`) or GNU long-name (`L`) entry gives the entry after it. */
function longName(e: TarEntry): string | undefined {
  return e.type === 'x' ? paxPath(e.body) : text(e.body);
}

/** Entries that describe the next one (pax, pax global, GNU long name) rather than being files. */
const META_TYPES = new Set(['x', 'g', 'L']);

/**
 * The regular files of a tar archive (ustar, GNU and pax headers; as bsdtar, which Windows ships as
 * tar.exe, reads them), by entry name without a leading `./`. Directories, links and other entries are
 * skipped. A damaged archive (bad checksum, truncated data) throws.
 */
export function readTar(archive: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let nextName: string | undefined;
  for (let at = 0; at + BLOCK <= archive.length;) {
    const e = entryAt(archive, at);
    if (!e) break;
    at = e.next;
    if (META_TYPES.has(e.type)) {
      if (e.type !== 'g') nextName = longName(e);
      continue;
    }
    const name = nextName ?? e.name;
    nextName = undefined;
    if (e.type === '0' || e.type === '\0') files.set(name.replace(/^(\.\/)+/, ''), e.body);
  }
  return files;
}

/** Gunzips and reads a `.tar.gz` (see `readTar`). */
export async function readTarGz(archive: Buffer): Promise<Map<string, Buffer>> {
  let tar: Buffer;
  try {
    tar = await gunzipAsync(archive);
  } catch (err) {
    throw new Error(`not a gzip file: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return readTar(tar);
}

function header(name: string, size: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 100) throw new Error(`tar entry name too long for ustar: ${name}`);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100, 'latin1');
  h.write('0000000\0', 108, 'latin1');
  h.write('0000000\0', 116, 'latin1');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  // mtime 0: the archive depends only on the name and the bytes (deterministic payloads).
  h.write('00000000000\0', 136, 'latin1');
  h.write('        ', 148, 'latin1');
  h.write('0', 156, 'latin1');
  h.write('ustar\0', 257, 'latin1');
  h.write('00', 263, 'latin1');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

/** One file as a ustar archive (as `tar -cf - <name>` writes it, with mtime 0 and owner 0). */
export function tarOf(name: string, data: Buffer): Buffer {
  const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
  return Buffer.concat([header(name, data.length), data, Buffer.alloc(pad), Buffer.alloc(2 * BLOCK)]);
}

/** One file as a `.tar.gz`, upstream's payload format. */
export function tarGzOf(name: string, data: Buffer, level = 6): Promise<Buffer> {
  return gzipAsync(tarOf(name, data), { level });
}
