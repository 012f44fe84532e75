import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function hasKubectl(): boolean {
  return spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
}

/**
 * Makes sure Debian's `kubectl` is installed (apt-get when missing, which needs root); returns an error
 * message when it cannot be.
 */
export function ensureKubectl(): string | undefined {
  if (hasKubectl()) return undefined;
  const r = spawnSync('sh', ['-c', 'apt-get update && apt-get install -y kubectl'], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (hasKubectl()) return undefined;
  return `kubectl is missing and apt-get could not install it (rc ${String(r.status)}): ${(r.stderr || '').slice(-500)}`;
}

/** Runs kubectl against one kubeconfig with a fresh --cache-dir (kubectl-needs §0) and a private HOME. */
export class Kubectl {
  private readonly cacheDir: string;
  private readonly home: string;

  constructor(private readonly kubeconfig: string) {
    const dir = mkdtempSync(join(tmpdir(), 'wmco-kubectl-'));
    this.cacheDir = join(dir, 'cache');
    this.home = dir;
  }

  private env(): NodeJS.ProcessEnv {
    return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: this.home, KUBECONFIG: this.kubeconfig };
  }

  run(args: readonly string[], input?: string): Promise<KubectlResult> {
    return new Promise((resolve) => {
      const child = execFile(
        'kubectl',
        [`--cache-dir=${this.cacheDir}`, ...args],
        { env: this.env(), timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
      if (input !== undefined) child.stdin?.end(input);
    });
  }

  /** Starts a long-running kubectl (e.g. `get -w`); the caller must kill it. */
  spawn(args: readonly string[]): ChildProcess {
    return spawn('kubectl', [`--cache-dir=${this.cacheDir}`, ...args], {
      env: this.env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
}
