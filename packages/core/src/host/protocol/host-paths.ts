/**
 * Where the operator keeps its own things on a Windows host. None of these paths ever contains a user
 * string: the module is named by its content hash, staged payload files by theirs.
 */
export const HostPaths = {
  /** Root of the operator's working area. */
  root: 'C:\\ProgramData\\wmco',
  /** Uploaded payload files wait here, named by SHA-256, until `apply` verifies and moves them. */
  staging: 'C:\\ProgramData\\wmco\\staging',
} as const;

/** The module's path on the host for a given module content hash (uploaded once per version). */
export function modulePathFor(moduleSha256: string): string {
  return `${HostPaths.root}\\WmcoHost-${moduleSha256.slice(0, 16)}.psm1`;
}

/** The staged path of a payload file with the given SHA-256. */
export function stagedPathFor(sha256: string): string {
  return `${HostPaths.staging}\\${sha256}`;
}

/**
 * The staged path of a compressed payload file (a `.tar.gz` holding the file with the given SHA-256):
 * `apply` extracts it next to itself, checks the extracted file's hash and stages it as `stagedPathFor`.
 */
export function stagedArchivePathFor(sha256: string): string {
  return `${stagedPathFor(sha256)}.tar.gz`;
}
