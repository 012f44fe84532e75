import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** Finds a CLI on PATH or in the given extra places (pyenv shims are not on a non-login shell's PATH). */
export function findCli(name: string, extra: readonly string[] = []): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), ...extra];
  return dirs.map((d) => join(d, name)).find((p) => existsSync(p));
}

/** A private temporary folder holding the given files; returns their paths by name. */
export function tempFiles(files: Readonly<Record<string, string>>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'wmco-cloud-cli-'));
  const out: Record<string, string> = { dir };
  for (const [name, content] of Object.entries(files)) {
    out[name] = join(dir, name);
    writeFileSync(join(dir, name), content, { mode: 0o600 });
  }
  return out;
}

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a CLI with a fixed environment and a time limit; never throws on a non-zero exit. */
export function runCli(
  bin: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  timeoutMs = 90_000,
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      bin,
      [...args],
      { env: { ...env }, timeout: timeoutMs, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
