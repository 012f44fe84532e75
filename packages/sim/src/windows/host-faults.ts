/**
 * Where a simulated host stops answering, for tests of the operator's deadlines (issue 28). Each point is
 * a place in the protocol where a real host has been seen to hang while its TCP connection stays up:
 *
 * - `handshake`: the SSH server accepts the TCP connection and then sends nothing more (an sshd that
 *   accepted but whose child never runs the key exchange: a host under memory pressure, a frozen VM);
 * - `sftp`: SSH and exec work, every SFTP request is taken and never answered (a stuck sftp-server.exe,
 *   a disk that stopped answering);
 * - `ready`: the exec channel opens but powershell.exe never prints the module's ready line (a hung
 *   powershell.exe start, a module load stuck on a WMI or disk call);
 * - `command`: the module says it is ready, then no request gets an answer (a request stuck mid-way).
 *
 * Set with `host.faults.silentAt = point`; cleared by deleting it (the host answers again for new
 * connections and sessions). `host.faults.silent = true` is the older form of `sftp` and `ready` at once.
 */
export type SilentPoint = 'handshake' | 'sftp' | 'ready' | 'command';

/** Every silent point, in protocol order. */
export const SILENT_POINTS: readonly SilentPoint[] = ['handshake', 'sftp', 'ready', 'command'];

/** The fault fields this file reads (a subset of `HostFaults`). */
export interface SilenceFaults {
  /** Silent everywhere after the handshake (SFTP and exec before the ready line), while set. */
  silent?: boolean;
  /** Silent at one point of the protocol, while set. */
  silentAt?: SilentPoint;
  /**
   * Every exec prints without end, while set (the one-shot form is `endlessOutput`): one endless line
   * (true) or endless short lines (`'lines'`).
   */
  endlessOutputAlways?: true | 'lines';
}

/** Whether the host is silent at `point` now. */
export function isSilentAt(faults: SilenceFaults, point: SilentPoint): boolean {
  if (faults.silentAt === point) return true;
  return faults.silent === true && (point === 'sftp' || point === 'ready');
}

/**
 * Makes an accepted TCP connection go quiet: nothing more is read from it or written to it, and it is
 * not closed (no FIN, no RST). What the SSH server wrote at once (its banner) may already be on the wire.
 */
export function silenceSocket(socket: { pause(): unknown; write: (...args: never[]) => boolean }): void {
  socket.pause();
  socket.write = (): boolean => true;
}
