import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OpenSshResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** True when the client ended by itself; false when it was killed at the safety timeout (it hung). */
  readonly ended: boolean;
}

// A safety net, not a measure: a client still running after this long waits on a channel never closed.
const HUNG_MS = 60_000;

const hasSftp = (): boolean => spawnSync('sh', ['-c', 'command -v sftp && command -v ssh']).status === 0;

/** Makes sure Debian's OpenSSH client is installed (apt-get when missing); an error message if not. */
export function ensureOpenSshClient(): string | undefined {
  if (hasSftp()) return undefined;
  const r = spawnSync('sh', ['-c', 'apt-get update && apt-get install -y openssh-client'], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (hasSftp()) return undefined;
  return `ssh/sftp are missing and apt-get could not install openssh-client (rc ${String(r.status)})`;
}

/** Debian's `ssh` and `sftp` in batch mode against one host, with a throwaway known_hosts. */
export class OpenSshClient {
  private readonly keyFile: string;
  private readonly dir: string;

  constructor(
    privateKey: string,
    private readonly host: string,
    private readonly port: number,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'wmco-openssh-'));
    this.keyFile = join(this.dir, 'id_ed25519');
    writeFileSync(this.keyFile, privateKey, { mode: 0o600 });
  }

  private common(portFlag: '-p' | '-P'): string[] {
    return [
      '-i',
      this.keyFile,
      '-o',
      'BatchMode=yes',
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      `UserKnownHostsFile=${join(this.dir, 'known_hosts')}`,
      portFlag,
      String(this.port),
    ];
  }

  /** `sftp -b -` with the given batch script on stdin; killed if it runs `timeoutMs` (a hung session). */
  sftp(batch: string, timeoutMs = HUNG_MS): Promise<OpenSshResult> {
    const args = ['-b', '-', ...this.common('-P'), `Administrator@${this.host}`];
    return this.run('sftp', args, batch, timeoutMs);
  }

  /** `ssh host command`; stdin stays open unless `stdin` is given (then it is written and closed). */
  ssh(command: string, stdin?: string, timeoutMs = HUNG_MS): Promise<OpenSshResult> {
    return this.run('ssh', [...this.common('-p'), `Administrator@${this.host}`, command], stdin, timeoutMs);
  }

  private run(
    bin: string,
    args: string[],
    stdin: string | undefined,
    timeoutMs: number,
  ): Promise<OpenSshResult> {
    return new Promise((resolve) => {
      const child = execFile(bin, args, { timeout: timeoutMs, cwd: this.dir }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr, ended: err?.killed !== true });
      });
      if (stdin !== undefined) child.stdin?.end(stdin);
    });
  }

  /** Where local files for get/put live. */
  get workDir(): string {
    return this.dir;
  }
}
