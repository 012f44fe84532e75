/** What a simulated host counts, for tests and benchmarks. */
export interface HostStats {
  /** TCP connections the SSH server accepted (before any handshake). */
  connectionsAccepted: number;
  powershellStarts: number;
  /** Exec channels opened (one request/answer round trip each). */
  execs: number;
  openExecs: number;
  maxOpenExecs: number;
  sftpRequests: number;
  writes: number;
  /** Bytes uploaded over SFTP. */
  bytesReceived: number;
  /** Exec channels now streaming endless output (the `endlessOutput` fault), until the client closes them. */
  floodsOpen: number;
  /** Bytes those channels wrote: what the client let through before it closed them. */
  floodBytes: number;
  /** Reboots the host went through (requested, scheduled by an apply, or a fault's power loss). */
  reboots: number;
  /**
   * Public-key auth requests per offered key's fingerprint (`SHA256:...`), accepted or not: who tried to
   * log in (sshd's auth log names the key of each attempt at LogLevel VERBOSE).
   */
  keysOffered: Record<string, number>;
}

/** Fresh counters, all zero. */
export function newHostStats(): HostStats {
  return {
    connectionsAccepted: 0,
    powershellStarts: 0,
    execs: 0,
    openExecs: 0,
    maxOpenExecs: 0,
    sftpRequests: 0,
    writes: 0,
    bytesReceived: 0,
    floodsOpen: 0,
    floodBytes: 0,
    reboots: 0,
    keysOffered: {},
  };
}
