/**
 * Reads the version resource (VS_VERSIONINFO's VS_FIXEDFILEINFO) of a Windows PE image, as Explorer's
 * "Details" tab shows it. Layout from Microsoft's "PE Format" (DOS header `e_lfanew`, COFF header,
 * PE32/PE32+ optional header, data directory 2 = resources, section table) and the "VS_VERSIONINFO" and
 * "VS_FIXEDFILEINFO" references. Every offset is bounds-checked: a damaged file is an error, never a
 * read past the end.
 */
export interface PeVersion {
  /** FileVersion as four numbers, e.g. `1.36.2.0`. */
  readonly fileVersion: string;
  readonly productVersion: string;
}

const RT_VERSION = 16;
const FIXED_SIGNATURE = 0xfeef04bd;

class Reader {
  constructor(
    private readonly buf: Buffer,
    private readonly what: string,
  ) {}

  check(offset: number, length: number): void {
    if (!Number.isInteger(offset) || offset < 0 || offset + length > this.buf.length)
      throw new Error(`${this.what}: truncated or damaged (offset ${offset})`);
  }
  u16(o: number): number {
    this.check(o, 2);
    return this.buf.readUInt16LE(o);
  }
  u32(o: number): number {
    this.check(o, 4);
    return this.buf.readUInt32LE(o);
  }
  utf16z(o: number, max: number): string {
    let end = o;
    while (end < o + max * 2 && this.u16(end) !== 0) end += 2;
    return this.buf.toString('utf16le', o, end);
  }
}

interface Section {
  readonly rva: number;
  readonly size: number;
  readonly raw: number;
}

/** The section table and the resource directory's RVA (0 when the image has no resources). */
function peLayout(r: Reader): { sections: Section[]; resourceRva: number } {
  if (r.u16(0) !== 0x5a4d) throw new Error('not a PE file: no MZ header');
  const pe = r.u32(0x3c);
  if (r.u32(pe) !== 0x00004550) throw new Error('not a PE file: no PE signature');
  const count = r.u16(pe + 6);
  const optSize = r.u16(pe + 20);
  const opt = pe + 24;
  const magic = r.u16(opt);
  if (magic !== 0x10b && magic !== 0x20b) throw new Error(`not a PE file: optional header magic ${magic}`);
  const dirs = opt + (magic === 0x20b ? 112 : 96);
  const dirCount = r.u32(dirs - 4);
  const resourceRva = dirCount > 2 ? r.u32(dirs + 16) : 0;
  const table = opt + optSize;
  const sections = Array.from({ length: count }, (_, i) => {
    const s = table + i * 40;
    const virtual = r.u32(s + 8);
    return { rva: r.u32(s + 12), size: Math.max(virtual, r.u32(s + 16)), raw: r.u32(s + 20) };
  });
  return { sections, resourceRva };
}

function fileOffset(sections: readonly Section[], rva: number, what: string): number {
  const s = sections.find((x) => rva >= x.rva && rva < x.rva + x.size);
  if (!s) throw new Error(`${what}: RVA ${rva} is in no section`);
  return s.raw + (rva - s.rva);
}

/** The first entry of a resource directory with `id` (any when undefined): its target offset. */
function entry(
  r: Reader,
  base: number,
  dir: number,
  id?: number,
): { offset: number; isDir: boolean } | undefined {
  const n = r.u16(dir + 12) + r.u16(dir + 14);
  for (let i = 0; i < n && i < 4096; i++) {
    const e = dir + 16 + i * 8;
    const name = r.u32(e);
    const target = r.u32(e + 4);
    if (id !== undefined && name !== id) continue;
    return { offset: base + (target & 0x7fffffff), isDir: (target & 0x80000000) !== 0 };
  }
  return undefined;
}

const version = (ms: number, ls: number): string =>
  [ms >>> 16, ms & 0xffff, ls >>> 16, ls & 0xffff].join('.');

/** The file offset of the RT_VERSION resource's data entry (type → first name → first language). */
function versionDataEntry(r: Reader, base: number): number | undefined {
  const type = entry(r, base, base, RT_VERSION);
  if (!type?.isDir) return undefined;
  const named = entry(r, base, type.offset);
  const lang = named?.isDir ? entry(r, base, named.offset) : undefined;
  return lang && !lang.isDir ? lang.offset : undefined;
}

/** The image's version, or undefined when it has no version resource. */
export function readPeVersion(image: Buffer, name = 'PE file'): PeVersion | undefined {
  const r = new Reader(image, name);
  const { sections, resourceRva } = peLayout(r);
  if (resourceRva === 0) return undefined;
  const dataEntry = versionDataEntry(r, fileOffset(sections, resourceRva, name));
  if (dataEntry === undefined) return undefined;
  const info = fileOffset(sections, r.u32(dataEntry), name);
  if (r.utf16z(info + 6, 16) !== 'VS_VERSION_INFO' || r.u16(info + 2) < 52)
    throw new Error(`${name}: the version resource is not a VS_VERSIONINFO`);
  const fixed = info + 40; // 6-byte header + "VS_VERSION_INFO\0" (32 bytes) + 2 bytes of padding
  if (r.u32(fixed) !== FIXED_SIGNATURE) throw new Error(`${name}: VS_FIXEDFILEINFO has a bad signature`);
  return {
    fileVersion: version(r.u32(fixed + 8), r.u32(fixed + 12)),
    productVersion: version(r.u32(fixed + 16), r.u32(fixed + 20)),
  };
}
