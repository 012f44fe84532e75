/** What one join made a simulated host do, read from its counters. */
export interface JoinWork {
  /** `powershell.exe` starts (observe and apply of every converge round). */
  readonly powershellStarts: number;
  /** Exec channels (one request/answer round trip each). */
  readonly execs: number;
  /** Service starts by the host's service control manager. */
  readonly serviceStarts: number;
  /** Bytes uploaded over SFTP. */
  readonly bytes: number;
}

/** The limit of joining several hosts at once and which bound decides it. */
export interface JoinLimit {
  readonly seconds: number;
  /** (a) the slowest host's lower bound (join-lower-bound.ts); each host has its own link and PowerShell. */
  readonly criticalPath: number;
  /**
   * (b) every byte sent through this machine's SSH encryption, at the best throughput measured on it (the
   * SSH measurement's, or the plain client's of the same run: join-figure.ts).
   */
  readonly encryption: number;
  readonly bound: 'critical path' | 'SSH throughput';
}

/** max((a) the slowest host's lower bound, (b) all bytes ÷ the best SSH throughput seen on this machine). */
export function joinLimit(
  criticalPathSeconds: number,
  totalBytes: number,
  sshBytesPerSecond: number,
): JoinLimit {
  const encryption = totalBytes / sshBytesPerSecond;
  return {
    seconds: Math.max(criticalPathSeconds, encryption),
    criticalPath: criticalPathSeconds,
    encryption,
    bound: encryption > criticalPathSeconds ? 'SSH throughput' : 'critical path',
  };
}

/** Rounds seconds to milliseconds, for printing and the JSON line. */
export function ms(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * A measured join faster than its limit: the limit is not a lower bound (it counts a cost some design, this
 * one, avoids), so no ratio against it may be printed.
 */
export class LimitNotALowerBoundError extends Error {
  constructor(figure: string) {
    super(
      `a join beat its limit, so the limit is wrong (not a lower bound); fix join-lower-bound.ts: ${figure}`,
    );
    this.name = 'LimitNotALowerBoundError';
  }
}
