import { SERVER_VERSION } from '../apiserver/discovery.js';

/**
 * A minimal but valid PE32+ image (x64, one `.rsrc` section, no code) whose resource section holds a
 * VS_VERSIONINFO resource (RT_VERSION, id 1, language 0x0409), the way a Go build with a `.syso` version
 * resource carries one: the fixed file information (FileVersion, ProductVersion as a.b.c.d) and a
 * StringFileInfo table (`040904b0`). `overlay` is appended after the last section, where Windows ignores
 * it (as it does an Authenticode signature), so a stand-in binary keeps its size and content.
 * Layout from Microsoft's "PE Format" and "VS_VERSIONINFO" / "VS_FIXEDFILEINFO" references.
 */
export interface PeVersionSpec {
  /** `1.36.2` or `v1.36.2` (up to four numbers). */
  readonly version: string;
  readonly strings?: Readonly<Record<string, string>>;
}

/** The simulated cluster's Kubernetes release (`/version`), which the payloads' kubelet.exe carries. */
export const SIM_KUBELET_VERSION = SERVER_VERSION.gitVersion.replace(/-.*$/, '');

/**
 * A stand-in kubelet.exe: a PE image whose version resource names `version` (by default the simulated
 * cluster's), followed by `content`, as Kubernetes' Windows node binaries carry their release.
 */
export function kubeletImage(content: Buffer, version: string = SIM_KUBELET_VERSION): Buffer {
  const strings = { ProductName: 'Kubernetes', OriginalFilename: 'kubelet.exe' };
  return peWithVersion({ version, strings }, content);
}

const FILE_ALIGN = 0x200;
const SECTION_ALIGN = 0x1000;
const RSRC_RVA = 0x1000;

const align = (n: number, to: number): number => Math.ceil(n / to) * to;
const utf16z = (s: string): Buffer => Buffer.from(`${s}\0`, 'utf16le');
const pad4 = (b: Buffer): Buffer => Buffer.concat([b, Buffer.alloc(align(b.length, 4) - b.length)]);

/** One version-info block: wLength, wValueLength, wType, szKey, padding, value, padding, children. */
function block(key: string, value: Buffer | string | undefined, children: readonly Buffer[]): Buffer {
  const text = typeof value === 'string';
  const valueBytes = text ? utf16z(value) : (value ?? Buffer.alloc(0));
  const head = Buffer.alloc(6);
  head.writeUInt16LE(text ? valueBytes.length / 2 : valueBytes.length, 2);
  head.writeUInt16LE(text ? 1 : 0, 4);
  let body = pad4(Buffer.concat([head, utf16z(key)]));
  if (valueBytes.length > 0) body = Buffer.concat([body, valueBytes]);
  for (const child of children) body = Buffer.concat([pad4(body), child]);
  body.writeUInt16LE(body.length, 0);
  return body;
}

function versionNumbers(version: string): [number, number, number, number] {
  const parts = version.replace(/^v/, '').split(/[.+-]/).slice(0, 4).map(Number);
  if (parts.length < 2 || parts.some((n) => !Number.isInteger(n) || n < 0 || n > 0xffff))
    throw new Error(`pe version: ${version} is not a version of up to four numbers`);
  const [a = 0, b = 0, c = 0, d = 0] = parts;
  return [a, b, c, d];
}

function fixedFileInfo([a, b, c, d]: [number, number, number, number]): Buffer {
  const f = Buffer.alloc(52);
  const words = [0xfeef04bd, 0x00010000, (a << 16) | b, (c << 16) | d, (a << 16) | b, (c << 16) | d];
  words.forEach((w, i) => f.writeUInt32LE(w >>> 0, i * 4));
  f.writeUInt32LE(0x3f, 24); // dwFileFlagsMask
  f.writeUInt32LE(0x00040004, 32); // dwFileOS: VOS_NT_WINDOWS32
  f.writeUInt32LE(1, 36); // dwFileType: VFT_APP
  return f;
}

/** The VS_VERSIONINFO resource's bytes. */
export function versionInfoResource(spec: PeVersionSpec): Buffer {
  const numbers = versionNumbers(spec.version);
  const strings = { FileVersion: numbers.join('.'), ProductVersion: spec.version, ...spec.strings };
  const table = block(
    '040904b0',
    undefined,
    Object.entries(strings).map(([k, v]) => block(k, v, [])),
  );
  const translation = block('VarFileInfo', undefined, [
    block('Translation', Buffer.from([9, 4, 0xb0, 4]), []),
  ]);
  return block('VS_VERSION_INFO', fixedFileInfo(numbers), [
    block('StringFileInfo', undefined, [table]),
    translation,
  ]);
}

/** A resource directory with one id entry pointing at `target` (a subdirectory when `dir`). */
function directory(id: number, target: number, dir: boolean): Buffer {
  const d = Buffer.alloc(24);
  d.writeUInt16LE(1, 14); // NumberOfIdEntries
  d.writeUInt32LE(id, 16);
  d.writeUInt32LE((dir ? 0x80000000 : 0) + target, 20);
  return d;
}

/** The `.rsrc` section: RT_VERSION (16) → id 1 → language 0x0409 → data entry → VS_VERSIONINFO. */
function resourceSection(info: Buffer): Buffer {
  const entry = Buffer.alloc(16);
  entry.writeUInt32LE(RSRC_RVA + 88, 0); // OffsetToData is an RVA
  entry.writeUInt32LE(info.length, 4);
  return Buffer.concat([
    directory(16, 24, true),
    directory(1, 48, true),
    directory(0x409, 72, false),
    entry,
    info,
  ]);
}

function headers(rawSize: number, virtualSize: number): Buffer {
  const h = Buffer.alloc(FILE_ALIGN);
  h.write('MZ', 0, 'latin1');
  h.writeUInt32LE(0x40, 0x3c); // e_lfanew
  h.write('PE\0\0', 0x40, 'latin1');
  const coff = 0x44;
  h.writeUInt16LE(0x8664, coff); // AMD64
  h.writeUInt16LE(1, coff + 2); // one section
  h.writeUInt16LE(240, coff + 16); // SizeOfOptionalHeader (PE32+, 16 data directories)
  h.writeUInt16LE(0x0022, coff + 18); // EXECUTABLE_IMAGE | LARGE_ADDRESS_AWARE
  const opt = coff + 20;
  h.writeUInt16LE(0x20b, opt); // PE32+
  h.writeUInt32LE(rawSize, opt + 8); // SizeOfInitializedData
  h.writeBigUInt64LE(0x140000000n, opt + 24); // ImageBase
  h.writeUInt32LE(SECTION_ALIGN, opt + 32);
  h.writeUInt32LE(FILE_ALIGN, opt + 36);
  h.writeUInt16LE(6, opt + 40); // MajorOperatingSystemVersion
  h.writeUInt16LE(6, opt + 48); // MajorSubsystemVersion
  h.writeUInt32LE(RSRC_RVA + align(virtualSize, SECTION_ALIGN), opt + 56); // SizeOfImage
  h.writeUInt32LE(FILE_ALIGN, opt + 60); // SizeOfHeaders
  h.writeUInt16LE(3, opt + 68); // IMAGE_SUBSYSTEM_WINDOWS_CUI
  h.writeUInt16LE(0x8160, opt + 70); // DllCharacteristics: high entropy VA, dynamic base, NX, TS aware
  [0x100000n, 0x1000n, 0x100000n, 0x1000n].forEach((v, i) => h.writeBigUInt64LE(v, opt + 72 + i * 8));
  h.writeUInt32LE(16, opt + 108); // NumberOfRvaAndSizes
  h.writeUInt32LE(RSRC_RVA, opt + 112 + 2 * 8); // IMAGE_DIRECTORY_ENTRY_RESOURCE
  h.writeUInt32LE(virtualSize, opt + 112 + 2 * 8 + 4);
  const sec = opt + 240;
  h.write('.rsrc', sec, 'latin1');
  h.writeUInt32LE(virtualSize, sec + 8);
  h.writeUInt32LE(RSRC_RVA, sec + 12);
  h.writeUInt32LE(rawSize, sec + 16);
  h.writeUInt32LE(FILE_ALIGN, sec + 20); // PointerToRawData
  h.writeUInt32LE(0x40000040, sec + 36); // INITIALIZED_DATA | MEM_READ
  return h;
}

/** A PE image carrying `spec` as its version resource, followed by `overlay`. */
export function peWithVersion(spec: PeVersionSpec, overlay: Buffer = Buffer.alloc(0)): Buffer {
  const rsrc = resourceSection(versionInfoResource(spec));
  const raw = align(rsrc.length, FILE_ALIGN);
  const section = Buffer.concat([rsrc, Buffer.alloc(raw - rsrc.length)]);
  return Buffer.concat([headers(raw, rsrc.length), section, overlay]);
}
