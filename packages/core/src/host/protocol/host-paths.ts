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
  /**
   * Folders whose sub-folders the operator owns outright: `observe` may list them and `apply` may remove
   * one of them (a `removeDirectory` step). containerd's registry folder holds one folder per mirrored
   * registry, each with the `hosts.toml` generated from the cluster's mirror sets; a deleted mirror set
   * must not leave its folder behind, because containerd would keep pulling through the old mirror.
   */
  prunableRoots: ['C:\\k\\containerd\\registries'],
  /**
   * hybrid-overlay's certificate folder (its `--cert-dir`): its certificate manager writes a new
   * `ovnkube-client-<time>.pem` at every rotation and deletes none; `observe` may list those files and `apply`
   * may remove one (a `removeClientCertificate` step), as upstream WICD prunes them (reference §1.5).
   */
  clientCertificates: 'C:\\k\\cni\\config',
} as const;

/** The file names of hybrid-overlay's client certificates (`ovnkube-client-*.pem`) the operator may remove. */
export const CLIENT_CERTIFICATE_NAME = /^ovnkube-client-[A-Za-z0-9._-]+\.pem$/;

/** True when `path` is exactly one level below a prunable root (case-insensitive, no `..`). */
export function isPrunablePath(path: string): boolean {
  const at = path.lastIndexOf('\\');
  if (at < 0) return false;
  const parent = path.slice(0, at).toLowerCase();
  const name = path.slice(at + 1);
  return (
    /^[A-Za-z0-9._-]+$/.test(name) &&
    name !== '.' &&
    name !== '..' &&
    HostPaths.prunableRoots.some((r) => r.toLowerCase() === parent)
  );
}

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
