/** Well-known SIDs (the same on every Windows, whatever its display language). */
export const Sid = {
  everyone: 'S-1-1-0',
  creatorOwner: 'S-1-3-0',
  authenticatedUsers: 'S-1-5-11',
  system: 'S-1-5-18',
  administrators: 'S-1-5-32-544',
  users: 'S-1-5-32-545',
  trustedInstaller: 'S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464',
} as const;

/** FileSystemRights values (System.Security.AccessControl.FileSystemRights). */
export const Rights = {
  fullControl: 0x1f01ff,
  modify: 0x1301bf,
  readAndExecute: 0x1200a9,
  createFiles: 0x2,
  createDirectories: 0x4,
} as const;

/** One access control entry of a folder's DACL. */
export interface FolderAce {
  readonly sid: string;
  /** FileSystemRights bits. */
  readonly rights: number;
  readonly allow: boolean;
  /** (OI)(CI): folders and files created inside get the entry too. */
  readonly inherit: boolean;
  /** (IO): for what is created inside only, not for the folder itself. */
  readonly inheritOnly?: boolean;
  /** (I): came from the parent. */
  readonly inherited?: boolean;
}

/** A folder's owner and DACL as Get-Acl reads them: explicit entries, whether the parent's reach it. */
export interface FolderSecurity {
  readonly owner: string;
  /** SetAccessRuleProtection(true, ...): the parent's inheritable entries do not reach this folder. */
  readonly protected: boolean;
  readonly aces: readonly FolderAce[];
  /** A null DACL: everyone has full control (SDDL `D:NO_ACCESS_CONTROL`). */
  readonly nullDacl?: boolean;
}

const full = (sid: string): FolderAce => ({ sid, rights: Rights.fullControl, allow: true, inherit: true });

/** The operator's ACL (Protect-WmcoDirectory): owner Administrators, protected, SYSTEM and Administrators. */
export const OPERATOR_SECURITY: FolderSecurity = {
  owner: Sid.administrators,
  protected: true,
  aces: [full(Sid.system), full(Sid.administrators)],
};

/**
 * The ACLs Windows Server installs on `C:\` and `C:\ProgramData` (icacls of a fresh Windows Server 2019/2022):
 * a folder an administrator makes under either lets BUILTIN\Users create folders and files in it.
 */
export const WINDOWS_DEFAULT_SECURITY: Readonly<Record<string, FolderSecurity>> = {
  'c:\\': {
    owner: Sid.trustedInstaller,
    protected: true,
    aces: [
      full(Sid.system),
      full(Sid.administrators),
      { sid: Sid.users, rights: Rights.readAndExecute, allow: true, inherit: true },
      { sid: Sid.users, rights: Rights.createDirectories, allow: true, inherit: true },
      { sid: Sid.users, rights: Rights.createFiles, allow: true, inherit: true, inheritOnly: true },
      { sid: Sid.creatorOwner, rights: Rights.fullControl, allow: true, inherit: true, inheritOnly: true },
    ],
  },
  'c:\\programdata': {
    owner: Sid.system,
    protected: true,
    aces: [
      full(Sid.system),
      full(Sid.administrators),
      { sid: Sid.creatorOwner, rights: Rights.fullControl, allow: true, inherit: true, inheritOnly: true },
      { sid: Sid.users, rights: Rights.readAndExecute, allow: true, inherit: true },
      { sid: Sid.users, rights: 0x116, allow: true, inherit: true },
    ],
  },
};

/** The entries a folder inherits from its parent's effective ACL: the inheritable ones, for the folder itself. */
export function inheritedAces(parent: FolderSecurity): FolderAce[] {
  return parent.aces.filter((a) => a.inherit).map((a) => ({ ...a, inheritOnly: false, inherited: true }));
}

/** A folder's effective ACL: its explicit entries, then (unless protected) what it inherits. */
export function effectiveSecurity(
  own: FolderSecurity | undefined,
  parent: FolderSecurity | undefined,
): FolderSecurity {
  const inherited = parent === undefined ? [] : inheritedAces(parent);
  if (own === undefined) return { owner: Sid.administrators, protected: false, aces: inherited };
  if (own.protected || own.nullDacl) return own;
  return { ...own, aces: [...own.aces, ...inherited] };
}

/** Exactly the operator's ACL (Test-WmcoProtected): protected, owner Administrators, SYSTEM and Administrators. */
export function isOperatorSecurity(s: FolderSecurity): boolean {
  const ok: readonly string[] = [Sid.system, Sid.administrators];
  return (
    s.protected &&
    !s.nullDacl &&
    s.owner === Sid.administrators &&
    s.aces.length > 0 &&
    s.aces.every((a) => a.allow && ok.includes(a.sid))
  );
}
