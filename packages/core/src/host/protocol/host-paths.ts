/**
 * Where the operator keeps its own things on a Windows host. None of these paths ever contains a user
 * string: the module is named by its content hash, staged payload files by theirs.
 */
export const HostPaths = {
  /** Root of the operator's working area. */
  root: 'C:\\ProgramData\\wmco',
  /** Uploaded payload files wait here, named by SHA-256, until `apply` verifies and moves them. */
  staging: 'C:\\ProgramData\\wmco\\staging',
  /**
   * The operator's folders, created (or taken over) with an ACL for SYSTEM and Administrators only, not
   * inherited, before anything is written into them: its working area (module, staging), the node's files
   * (`C:\k`) and the scripts the services run as Administrator (`C:\Temp`, as upstream). Sub-folders inherit.
   */
  protectedRoots: ['C:\\ProgramData\\wmco', 'C:\\k', 'C:\\Temp'],
} as const;

/** The module's path on the host for a given module content hash (uploaded once per version). */
export function modulePathFor(moduleSha256: string): string {
  return `${HostPaths.root}\\WmcoHost-${moduleSha256.slice(0, 16)}.psm1`;
}

/** The staged path of a payload file with the given SHA-256. */
export function stagedPathFor(sha256: string): string {
  return `${HostPaths.staging}\\${sha256}`;
}
