import type { FileSystem } from './file-system.js';
import { Sid, type FolderAce } from './folder-security.js';

/** Get-WmcoFolderProblem's answer: the folder, why the operator will not use it, and the fix. */
export interface FolderProblem {
  readonly path: string;
  readonly reason: string;
  readonly fix: string;
}

/** $script:FolderWriters and $script:FolderOwners of the module. */
const WRITERS: readonly string[] = [Sid.system, Sid.administrators, Sid.trustedInstaller, Sid.creatorOwner];
const OWNERS: readonly string[] = [Sid.system, Sid.administrators];

/** $script:FolderWriteRights, in the module's order. */
const WRITE_RIGHTS: readonly (readonly [string, number])[] = [
  ['CreateFiles', 0x2],
  ['CreateDirectories', 0x4],
  ['WriteExtendedAttributes', 0x10],
  ['DeleteSubdirectoriesAndFiles', 0x40],
  ['WriteAttributes', 0x100],
  ['Delete', 0x10000],
  ['ChangePermissions', 0x40000],
  ['TakeOwnership', 0x80000],
  ['GenericAll', 0x10000000],
  ['GenericWrite', 0x40000000],
];

/** $script:WellKnownSidNames (messages only). */
const SID_NAMES: Readonly<Record<string, string>> = {
  'S-1-1-0': 'Everyone',
  'S-1-3-4': 'OWNER RIGHTS',
  'S-1-5-4': 'NT AUTHORITY\\INTERACTIVE',
  'S-1-5-7': 'NT AUTHORITY\\ANONYMOUS LOGON',
  'S-1-5-11': 'NT AUTHORITY\\Authenticated Users',
  'S-1-5-18': 'NT AUTHORITY\\SYSTEM',
  'S-1-5-32-544': 'BUILTIN\\Administrators',
  'S-1-5-32-545': 'BUILTIN\\Users',
  'S-1-5-32-546': 'BUILTIN\\Guests',
  'S-1-5-32-547': 'BUILTIN\\Power Users',
};

const label = (sid: string): string => (SID_NAMES[sid] ? `${SID_NAMES[sid]} (${sid})` : sid);

const REMOVE =
  'delete it if nothing else uses it (the operator then creates it for SYSTEM and Administrators only)';

const reset = (path: string): string =>
  `or, as an administrator: icacls "${path}" /setowner *${Sid.administrators} /T /C; icacls "${path}" ` +
  `/inheritance:r /grant:r *${Sid.system}:(OI)(CI)F *${Sid.administrators}:(OI)(CI)F`;

/** Get-WmcoWriteRightNames: the write rights a FileSystemRights value holds; all of them: FullControl. */
function writeRightNames(rights: number): string[] {
  if ((rights & 0x1f01ff) === 0x1f01ff || (rights & 0x10000000) !== 0) return ['FullControl'];
  return WRITE_RIGHTS.filter(([, bit]) => (rights & bit) !== 0).map(([name]) => name);
}

/** Get-WmcoForeignWriters: per principal not trusted (first-named first), the write rights its Allow entries add up to. */
function foreignWriters(aces: readonly FolderAce[]): { sid: string; rights: string }[] {
  const rights = new Map<string, number>();
  for (const a of aces) {
    if (a.allow && !WRITERS.includes(a.sid)) rights.set(a.sid, (rights.get(a.sid) ?? 0) | a.rights);
  }
  return [...rights].flatMap(([sid, r]) => {
    const names = writeRightNames(r);
    return names.length > 0 ? [{ sid, rights: names.join(', ') }] : [];
  });
}

function linkProblem(files: FileSystem, path: string): FolderProblem | undefined {
  const link = files.linkAt(path);
  if (link === undefined) return undefined;
  const kind = link.kind === 'junction' ? 'Junction' : 'SymbolicLink';
  return {
    path,
    reason: `is a ${kind} to ${link.target} (a reparse point)`,
    fix: `remove the link, not its target (cmd /c rmdir "${path}"); the operator then creates the folder for SYSTEM and Administrators only`,
  };
}

/**
 * Get-WmcoFolderProblem on the model: undefined for a missing folder or one the operator may use; else a
 * reparse point, a file, a null DACL, write access for others, or another owner, in the module's order.
 */
export function folderProblem(files: FileSystem, path: string): FolderProblem | undefined {
  const link = linkProblem(files, path);
  if (link) return link;
  if (files.isFile(path)) return { path, reason: 'is a file, not a folder', fix: REMOVE };
  if (!files.isDirectory(path)) return undefined;
  const security = files.security(path);
  if (security.nullDacl) {
    const fix = `${REMOVE}, ${reset(path)}`;
    return { path, reason: 'has no DACL (everyone has full control)', fix };
  }
  const writers = foreignWriters(security.aces);
  if (writers.length > 0) {
    const who = writers.map((w) => `${label(w.sid)} ${w.rights}`).join('; ');
    const drop = [...new Set(writers.map((w) => `*${w.sid}`))].join(' ');
    const fix = `${REMOVE}, ${reset(path)}; icacls "${path}" /remove:g ${drop} /T /C`;
    return { path, reason: `lets non-administrators write: ${who}`, fix };
  }
  if (!OWNERS.includes(security.owner)) {
    const reason = `is owned by ${label(security.owner)}, not Administrators or SYSTEM`;
    return { path, reason, fix: `${REMOVE}, ${reset(path)}` };
  }
  return undefined;
}

/** `observe`'s `folderProblems` for the requested `checkFolders` (none asked: nothing). */
export function observedFolderProblems(
  files: FileSystem,
  folders: readonly string[] | undefined,
): { folderProblems?: FolderProblem[] } {
  if (folders === undefined) return {};
  return { folderProblems: folders.flatMap((f) => folderProblem(files, f) ?? []) };
}

/** Format-WmcoFolderProblem: one line naming the folder, the reason and the fix. */
export function formatFolderProblem(p: FolderProblem): string {
  return `folder ${p.path} ${p.reason}, so the operator will not use it. Fix: ${p.fix}`;
}
