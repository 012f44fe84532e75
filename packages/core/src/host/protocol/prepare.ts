import { HostPaths } from './host-paths.js';

/** SIDs of the only principals with access to the operator's folders (the same in every language). */
export const SYSTEM_SID = 'S-1-5-18';
export const ADMINISTRATORS_SID = 'S-1-5-32-544';

/**
 * PowerShell that creates `directories` (or takes them over) with an ACL for SYSTEM and Administrators
 * only: owner Administrators, inheritance from the parent cut, full control for the two, inherited by
 * everything below. Children first lose any explicit entries (`icacls /reset /t`), so nothing planted
 * before keeps its own access. The host module has the same rule (Protect-WmcoDirectory).
 */
export function protectFoldersScript(directories: readonly string[]): string {
  const list = directories.map((d) => `'${d}'`).join(', ');
  return (
    `foreach ($dir in @(${list})) { ` +
    '$null = New-Item -ItemType Directory -Force -Path $dir; ' +
    '$null = & icacls.exe $dir /reset /t /c /q; ' +
    '$acl = New-Object System.Security.AccessControl.DirectorySecurity; ' +
    `$acl.SetOwner((New-Object System.Security.Principal.SecurityIdentifier '${ADMINISTRATORS_SID}')); ` +
    '$acl.SetAccessRuleProtection($true, $false); ' +
    `foreach ($sid in @('${SYSTEM_SID}', '${ADMINISTRATORS_SID}')) { ` +
    "$acl.AddAccessRule((New-Object System.Security.AccessControl.FileSystemAccessRule ((New-Object System.Security.Principal.SecurityIdentifier $sid), 'FullControl', 'ContainerInherit, ObjectInherit', 'None', 'Allow'))) }; " +
    'Set-Acl -LiteralPath $dir -AclObject $acl }'
  );
}

/**
 * The first command on a host that has no host module yet, before anything is uploaded: the operator's
 * working area and its staging folder, protected. Prints `wmco-prepared` when done.
 */
export function hostPrepareScript(): string {
  return (
    "$ErrorActionPreference = 'Stop'; $ProgressPreference = 'SilentlyContinue'; " +
    `${protectFoldersScript([HostPaths.root, HostPaths.staging])}; ` +
    "Write-Output 'wmco-prepared'"
  );
}

export const PREPARED_MARKER = 'wmco-prepared';
