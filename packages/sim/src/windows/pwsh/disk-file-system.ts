import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { FileSystem, type FileLink } from '../file-system.js';
import type { FolderSecurity } from '../folder-security.js';
import { baseName, parentPath, pathKey } from '../windows-path.js';

function statOf(path: string, follow = true): Stats | undefined {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The host's `C:` drive as a folder on disk (the PowerShell engine): the same contract as the in-memory
 * FileSystem, so SFTP, the service behaviours and the shims read and write the very files the real host
 * module writes. Paths are matched case-insensitively, each component against what is on disk (NTFS is
 * case-insensitive and case-preserving; Linux is not): a new name keeps the spelling it was created with.
 * Links are real symbolic links (their kind, junction or symlink, is kept here); owners and DACLs stay in
 * memory, as on the in-memory model.
 */
export class DiskFileSystem extends FileSystem {
  private readonly securities = new Map<string, FolderSecurity>();
  private readonly linkKinds = new Map<string, FileLink['kind']>();

  /** `root`: the folder that stands for `C:\` (PowerShell's `C:` drive is mapped to it). */
  constructor(readonly root: string) {
    super();
    mkdirSync(root, { recursive: true });
  }

  /** Where a Windows path lives on disk: each existing component in its on-disk spelling. */
  nativePath(path: string): string {
    const n = this.resolve(path);
    if (!n.startsWith('C:\\'))
      throw new Error(`Cannot find drive. A drive with the name '${n[0]}' does not exist.`);
    let at = this.root;
    for (const part of n
      .slice(3)
      .split('\\')
      .filter((p) => p !== '')) {
      at = join(at, this.spelling(at, part));
    }
    return at;
  }

  /** The Windows path of an on-disk path under the root. */
  windowsPath(native: string): string {
    const rel = relative(this.root, native);
    return rel === '' ? 'C:\\' : `C:\\${rel.split(sep).join('\\')}`;
  }

  private spelling(dir: string, name: string): string {
    if (statOf(join(dir, name), false)) return name;
    try {
      return readdirSync(dir).find((e) => e.toLowerCase() === name.toLowerCase()) ?? name;
    } catch {
      return name;
    }
  }

  /** The canonical (on-disk, links followed) Windows path, where a folder's ACL is kept. */
  protected override canonicalPath(path: string): string {
    const native = this.nativePath(path);
    const link = statOf(native, false)?.isSymbolicLink() ? readlinkSync(native) : undefined;
    return link !== undefined && link.startsWith(this.root)
      ? this.windowsPath(link)
      : this.windowsPath(native);
  }

  protected override ownSecurity(canonical: string): FolderSecurity | undefined {
    return this.securities.get(pathKey(canonical));
  }

  protected override storeSecurity(canonical: string, security: FolderSecurity | undefined): void {
    if (security === undefined) this.securities.delete(pathKey(canonical));
    else this.securities.set(pathKey(canonical), security);
  }

  override link(path: string, target: string, kind: FileLink['kind']): void {
    const n = this.resolve(path);
    if (!this.isDirectory(parentPath(n))) throw new Error(`Could not find a part of the path '${n}'.`);
    symlinkSync(this.nativePath(target), this.nativePath(n));
    this.linkKinds.set(pathKey(n), kind);
  }

  override linkAt(path: string): FileLink | undefined {
    const native = this.nativePath(path);
    if (!statOf(native, false)?.isSymbolicLink()) return undefined;
    const kind = this.linkKinds.get(pathKey(this.resolve(path))) ?? 'symlink';
    return { target: this.windowsPath(readlinkSync(native)), kind };
  }

  override isFile(path: string): boolean {
    return statOf(this.nativePath(path))?.isFile() === true;
  }

  override isDirectory(path: string): boolean {
    return statOf(this.nativePath(path))?.isDirectory() === true;
  }

  override read(path: string): Buffer | undefined {
    return this.isFile(path) ? readFileSync(this.nativePath(path)) : undefined;
  }

  override mkdirp(path: string): void {
    const n = this.resolve(path);
    if (this.isFile(n)) throw new Error(`An item with the specified name ${n} already exists.`);
    if (this.isDirectory(n)) return;
    this.mkdirp(parentPath(n));
    mkdirSync(this.nativePath(n));
  }

  override write(path: string, data: Buffer): void {
    const n = this.resolve(path);
    if (!this.isDirectory(parentPath(n))) throw new Error(`Could not find a part of the path '${n}'.`);
    if (this.isDirectory(n)) throw new Error(`Access to the path '${n}' is denied.`);
    this.noteWrite(n);
    writeFileSync(this.nativePath(n), data);
  }

  override rename(from: string, to: string, replace: boolean): void {
    const a = this.resolve(from);
    const b = this.resolve(to);
    if (!this.isFile(a)) throw new Error(`Cannot find path '${a}' because it does not exist.`);
    if (!replace && statOf(this.nativePath(b), false))
      throw new Error(`Cannot create a file when that file already exists: ${b}`);
    if (!this.isDirectory(parentPath(b))) throw new Error(`Could not find a part of the path '${b}'.`);
    this.noteWrite(b);
    renameSync(this.nativePath(a), this.nativePath(b));
  }

  override remove(path: string): boolean {
    const native = this.nativePath(path);
    if (!statOf(native, false)) return false;
    // rmSync never follows a link: a link is removed as a link, as on the model.
    rmSync(native, { recursive: true, force: true });
    return true;
  }

  override list(path: string): { name: string; path: string; directory: boolean; size: number }[] {
    const n = this.resolve(path);
    if (!this.isDirectory(n)) return [];
    const dir = this.nativePath(n);
    return readdirSync(dir).map((name) => {
      const s = statOf(join(dir, name));
      const child = n.endsWith('\\') ? `${n}${name}` : `${n}\\${name}`;
      return {
        name: baseName(child),
        path: child,
        directory: s?.isDirectory() === true,
        size: s?.isFile() ? s.size : 0,
      };
    });
  }

  override descendants(path: string): string[] {
    const out: string[] = [];
    const walk = (native: string): void => {
      for (const name of readdirSync(native)) {
        const child = join(native, name);
        out.push(this.windowsPath(child));
        if (statOf(child, false)?.isDirectory()) walk(child);
      }
    };
    const start = this.nativePath(path);
    if (statOf(start, false)?.isDirectory()) walk(start);
    return out.sort((x, y) => y.length - x.length);
  }
}
