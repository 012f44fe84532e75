import {
  OPERATOR_SECURITY,
  WINDOWS_DEFAULT_SECURITY,
  effectiveSecurity,
  isOperatorSecurity,
  type FolderSecurity,
} from './folder-security.js';
import { baseName, normalizeWindowsPath, parentPath, pathKey } from './windows-path.js';

interface Entry {
  readonly path: string;
  data?: Buffer;
  /** A junction (to a directory) or a symbolic link: the entry is the link itself. */
  link?: FileLink;
  /** The folder's own owner and DACL; none: owner Administrators, everything inherited from the parent. */
  security?: FolderSecurity;
}

export interface FileLink {
  readonly target: string;
  readonly kind: 'junction' | 'symlink';
}

/**
 * An in-memory NTFS stand-in: case-insensitive, case-preserving, files and directories, junctions and
 * symbolic links (reads and writes go through them; `remove` of a link removes only the link), and each
 * folder's owner and DACL (folder-security.ts), inherited below unless protected.
 */
export class FileSystem {
  private readonly entries = new Map<string, Entry>([['c:\\', { path: 'C:\\' }]]);
  /** Files written under a `watched` folder while that folder was not restricted (the last 100). */
  readonly unrestrictedWrites: string[] = [];
  /** Folders whose writes are checked against their ACL (the operator's folders). */
  watched: readonly string[] = [];

  /** Creates a junction or symbolic link at `path` (the parent must exist). */
  link(path: string, target: string, kind: FileLink['kind']): void {
    const n = this.resolve(path);
    if (!this.isDirectory(parentPath(n))) throw new Error(`Could not find a part of the path '${n}'.`);
    this.entries.set(pathKey(n), { path: n, link: { target: this.resolve(target), kind } });
  }

  /** The link at exactly `path` (not through a parent link), if it is one. */
  linkAt(path: string): FileLink | undefined {
    return this.entries.get(pathKey(this.resolve(path)))?.link;
  }

  /** Restricts a folder to SYSTEM and Administrators (Protect-WmcoDirectory's ACL). */
  restrict(path: string): void {
    this.setSecurity(path, OPERATOR_SECURITY);
  }

  /** Sets a folder's own owner and DACL (Set-Acl, or an administrator's icacls). */
  setSecurity(path: string, security: FolderSecurity): void {
    if (!this.isDirectory(path)) throw new Error(`Cannot find path '${path}' because it does not exist.`);
    this.storeSecurity(this.canonicalPath(path), security);
  }

  /** The folder's effective owner and DACL: its own entries and what it inherits (Get-Acl). */
  security(path: string): FolderSecurity {
    const n = this.canonicalPath(path);
    const up = parentPath(n);
    const own = this.ownSecurity(n) ?? WINDOWS_DEFAULT_SECURITY[pathKey(n)];
    return effectiveSecurity(own, up === n ? undefined : this.security(up));
  }

  /** True when only SYSTEM and Administrators have access to the folder (its own ACL or inherited). */
  isRestricted(path: string): boolean {
    const s = this.security(path);
    return isOperatorSecurity({ ...s, protected: true, owner: OPERATOR_SECURITY.owner });
  }

  /** True when the folder has exactly the operator's ACL (Test-WmcoProtected). */
  hasOperatorSecurity(path: string): boolean {
    return isOperatorSecurity(this.security(path));
  }

  /** `icacls <path> /reset /t`: everything below loses its own entries and inherits. */
  resetSecurityBelow(path: string): void {
    for (const below of this.descendants(path)) {
      if (this.isDirectory(below)) this.storeSecurity(this.canonicalPath(below), undefined);
    }
  }

  /** The path with links followed: where its ACL is kept. */
  protected canonicalPath(path: string): string {
    return this.follow(this.resolve(path));
  }

  protected ownSecurity(canonical: string): FolderSecurity | undefined {
    return this.entries.get(pathKey(canonical))?.security;
  }

  protected storeSecurity(canonical: string, security: FolderSecurity | undefined): void {
    const e = this.entries.get(pathKey(canonical));
    if (!e) return;
    if (security === undefined) delete e.security;
    else e.security = security;
  }

  /** The path with every link among its parents (and itself) replaced by the link's target. */
  private follow(n: string, hops = 0): string {
    if (hops > 31) throw new Error(`The name of the file cannot be resolved by the system: ${n}`);
    const parts = n
      .slice(3)
      .split('\\')
      .filter((p) => p !== '');
    for (let i = 1; i <= parts.length; i++) {
      const prefix = `${n.slice(0, 3)}${parts.slice(0, i).join('\\')}`;
      const link = this.entries.get(pathKey(prefix))?.link;
      if (link) return this.follow([link.target, ...parts.slice(i)].join('\\'), hops + 1);
    }
    return n;
  }

  /** Keeps the write in `unrestrictedWrites` when it lands in a watched folder that is not restricted. */
  protected noteWrite(n: string): void {
    const root = this.watched.find((w) => pathKey(n).startsWith(`${pathKey(w)}\\`));
    if (root === undefined || this.isRestricted(root)) return;
    this.unrestrictedWrites.push(n);
    if (this.unrestrictedWrites.length > 100) this.unrestrictedWrites.shift();
  }

  resolve(path: string): string {
    const n = normalizeWindowsPath(path);
    if (n === undefined)
      throw new Error(`The filename, directory name, or volume label syntax is incorrect: ${path}`);
    return n;
  }

  private get(path: string): Entry | undefined {
    return this.entries.get(pathKey(this.follow(this.resolve(path))));
  }

  isFile(path: string): boolean {
    return this.get(path)?.data !== undefined;
  }

  isDirectory(path: string): boolean {
    const e = this.get(path);
    return e !== undefined && e.data === undefined;
  }

  read(path: string): Buffer | undefined {
    return this.get(path)?.data;
  }

  /** Creates a directory and its parents (`New-Item -Force`). */
  mkdirp(path: string): void {
    const n = this.follow(this.resolve(path));
    if (this.isFile(n)) throw new Error(`An item with the specified name ${n} already exists.`);
    if (this.entries.has(pathKey(n))) return;
    this.mkdirp(parentPath(n));
    this.entries.set(pathKey(n), { path: n });
  }

  /** Writes a file; the parent directory must exist. */
  write(path: string, data: Buffer): void {
    const n = this.follow(this.resolve(path));
    if (!this.isDirectory(parentPath(n))) throw new Error(`Could not find a part of the path '${n}'.`);
    if (this.isDirectory(n)) throw new Error(`Access to the path '${n}' is denied.`);
    this.noteWrite(n);
    const existing = this.entries.get(pathKey(n));
    this.entries.set(pathKey(n), { path: existing?.path ?? n, data });
  }

  /** Renames a file; fails when the target exists and `replace` is false (SFTP v3 semantics). */
  rename(from: string, to: string, replace: boolean): void {
    const a = this.resolve(from);
    const b = this.resolve(to);
    const data = this.read(a);
    if (data === undefined) throw new Error(`Cannot find path '${a}' because it does not exist.`);
    if (!replace && this.entries.has(pathKey(b)))
      throw new Error(`Cannot create a file when that file already exists: ${b}`);
    this.write(b, data);
    this.entries.delete(pathKey(a));
  }

  /** Removes a file or a directory tree; true when something was there. */
  remove(path: string): boolean {
    const k = pathKey(this.resolve(path));
    if (!this.entries.has(k)) return false;
    for (const key of [...this.entries.keys()]) {
      if (key === k || key.startsWith(k.endsWith('\\') ? k : `${k}\\`)) this.entries.delete(key);
    }
    return true;
  }

  /** Direct children: name and whether each is a directory. */
  list(path: string): { name: string; path: string; directory: boolean; size: number }[] {
    const n = this.resolve(path);
    const k = pathKey(n);
    return [...this.entries.values()]
      .filter((e) => e.path !== n && pathKey(parentPath(e.path)) === k && pathKey(e.path) !== k)
      .map((e) => ({
        name: baseName(e.path),
        path: e.path,
        directory: e.data === undefined,
        size: e.data?.length ?? 0,
      }));
  }

  /** Every path under `path`, deepest first. */
  descendants(path: string): string[] {
    const k = pathKey(this.resolve(path));
    const prefix = k.endsWith('\\') ? k : `${k}\\`;
    return [...this.entries.values()]
      .filter((e) => pathKey(e.path).startsWith(prefix))
      .map((e) => e.path)
      .sort((x, y) => y.length - x.length);
  }
}
