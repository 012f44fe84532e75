import type { Attributes, SFTPWrapper } from 'ssh2';

/** The parts of ssh2's server-side SFTP channel that its typings leave out. */
interface RawSftpChannel {
  readonly outgoing: { readonly id: number; state: string };
  readonly _protocol: {
    exitStatus(channel: number, status: number): void;
    channelEOF(channel: number): void;
  };
}

/**
 * What sshd sends when sftp-server exits on the client's EOF (Windows OpenSSH as on Linux): exit-status 0,
 * EOF, then CLOSE. Without it OpenSSH's `sftp` hangs after `bye`, waiting for its ssh child to end.
 * ssh2's server SFTP object has no `exit()`, so the exit-status goes through its protocol directly.
 */
export function endSftpSession(sftp: SFTPWrapper): void {
  const raw = sftp as unknown as RawSftpChannel;
  if (raw.outgoing.state === 'open') {
    raw._protocol.exitStatus(raw.outgoing.id, 0);
    raw._protocol.channelEOF(raw.outgoing.id);
    raw.outgoing.state = 'eof';
  }
  sftp.end();
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const SIX_MONTHS_S = 182 * 24 * 3600;

/** Owner bits from the mode; Windows has no group/other bits, which Windows OpenSSH prints as `*`. */
function modeString(mode: number): string {
  const type = (mode & 0o170000) === 0o040000 ? 'd' : '-';
  const owner = ['r', 'w', 'x'].map((b, i) => ((mode & (0o400 >> i)) !== 0 ? b : '-')).join('');
  return `${type}${owner}******`;
}

function timeString(mtime: number, now: number): string {
  const d = new Date(mtime * 1000);
  const day = String(d.getUTCDate()).padStart(2, ' ');
  const head = `${MONTHS[d.getUTCMonth()] ?? ''} ${day}`;
  if (Math.abs(now - mtime) < SIX_MONTHS_S) {
    const hh = String(d.getUTCHours()).padStart(2, '0');
    const mm = String(d.getUTCMinutes()).padStart(2, '0');
    return `${head} ${hh}:${mm}`;
  }
  return `${head}  ${d.getUTCFullYear()}`;
}

/**
 * The `longname` of a READDIR entry, which `sftp`'s `ls -l` prints as is: the format of
 * openssh-portable's `ls_file()` (`%s %3u %-8s %-8s %8llu %s %s`), with the permission display
 * PowerShell/Win32-OpenSSH#1984 reports (`-rw-******`). The owner names are an assumption (not checked
 * against a Windows host; see FIDELITY.md).
 */
export function longName(name: string, a: Attributes, now = Math.floor(Date.now() / 1000)): string {
  const user = 'Administrators'.padEnd(8);
  const group = 'SYSTEM'.padEnd(8);
  const size = String(a.size).padStart(8);
  return `${modeString(a.mode)}   1 ${user} ${group} ${size} ${timeString(a.mtime, now)} ${name}`;
}
