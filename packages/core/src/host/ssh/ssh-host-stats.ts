/** Counters across every connection a host adapter made; `pnpm bench host` reports them. */
export interface SshHostStats {
  connects: number;
  powershellStarts: number;
  /** Calls that carried the host module on stdin (first contact, or a module that went missing). */
  moduleInstalls: number;
  sftpRequests: number;
  bytesSent: number;
}
