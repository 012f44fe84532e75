export const BLOCK = 512;

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

/** Entries that describe the next one (pax, pax global, GNU long name) rather than being files. */
const META_TYPES = new Set(['x', 'g', 'L']);

interface Entry {
  readonly type: string;
  readonly name: string;
  readonly size: number;
  /** The body's bytes as they arrived (views of the input chunks), joined when the entry is complete. */
  readonly pieces: Buffer[];
  received: number;
}

/**
 * Reads a tar archive (ustar, GNU and pax headers; as bsdtar, which Windows ships as tar.exe, reads them)
 * from consecutive chunks, so a `.tar.gz` can be read while it is gunzipped, without the whole `.tar` in
 * memory. Each regular file becomes a Buffer of its own (see `allocate`), by entry name without a leading `./`; directories, links and other entries are
 * skipped. A damaged archive (bad checksum, truncated data) throws; bytes after the end-of-archive marker
 * and a trailing partial header are ignored.
 */
export class TarReader {
  /** `allocate(size)`: the buffer a file's bytes are copied into (by default, one with its own memory). */
  constructor(private readonly allocate: (size: number) => Buffer = (n) => Buffer.allocUnsafeSlow(n)) {}

  private readonly files = new Map<string, Buffer>();
  private readonly header = Buffer.alloc(BLOCK);
  private headerBytes = 0;
  private entry: Entry | undefined;
  private padding = 0;
  /** Bytes of the archive consumed so far. */
  private offset = 0;
  private ended = false;
  private nextName: string | undefined;

  push(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length && !this.ended) {
      const rest = chunk.subarray(i);
      const used = this.entry ? this.body(rest) : this.padding > 0 ? this.skip(rest) : this.fillHeader(rest);
      i += used;
      this.offset += used;
    }
  }

  /** The regular files; throws when the archive ended inside an entry's data. */
  end(): Map<string, Buffer> {
    if (this.entry) throw new Error('truncated tar archive');
    return this.files;
  }

  private skip(rest: Buffer): number {
    const n = Math.min(this.padding, rest.length);
    this.padding -= n;
    return n;
  }

  private fillHeader(rest: Buffer): number {
    const n = rest.copy(this.header, this.headerBytes, 0, BLOCK - this.headerBytes);
    this.headerBytes += n;
    if (this.headerBytes === BLOCK) {
      this.headerBytes = 0;
      this.startEntry(this.offset + n - BLOCK);
    }
    return n;
  }

  private startEntry(at: number): void {
    const h = this.header;
    if (h.every((b) => b === 0)) {
      this.ended = true;
      return;
    }
    if (!checksumOk(h)) throw new Error(`not a tar archive: bad header checksum at byte ${at}`);
    const ustar = h.toString('latin1', 257, 263) === 'ustar\0';
    const prefix = ustar ? text(h.subarray(345, 500)) : '';
    const base = text(h.subarray(0, 100));
    const size = octal(h.subarray(124, 136), 'size');
    const type = String.fromCharCode(h[156]!);
    this.entry = { type, name: prefix ? `${prefix}/${base}` : base, size, pieces: [], received: 0 };
    if (size === 0) this.finishEntry();
  }

  private body(rest: Buffer): number {
    const e = this.entry!;
    const n = Math.min(e.size - e.received, rest.length);
    e.pieces.push(rest.subarray(0, n));
    e.received += n;
    if (e.received === e.size) this.finishEntry();
    return n;
  }

  private finishEntry(): void {
    const e = this.entry!;
    this.entry = undefined;
    this.padding = (BLOCK - (e.size % BLOCK)) % BLOCK;
    // One copy into a buffer of exactly this size: the input chunks can be freed, and the file owns its memory.
    const body = this.allocate(e.size);
    let at = 0;
    for (const piece of e.pieces) at += piece.copy(body, at);
    if (META_TYPES.has(e.type)) {
      if (e.type !== 'g') this.nextName = e.type === 'x' ? paxPath(body) : text(body);
      return;
    }
    const name = this.nextName ?? e.name;
    this.nextName = undefined;
    if (e.type === '0' || e.type === '\0') this.files.set(name.replace(/^(\.\/)+/, ''), body);
  }
}
