// The session script's module check, run by a real PowerShell (7, from the project's toolchain): a missing or
// altered module is said on stdout, where the operator looks, not in stderr's CLIXML.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPwsh } from '../pwsh/find-pwsh.js';
import { loadHostModule } from '../host-module.js';
import { encodePowerShellCommand } from './invocation.js';
import {
  SESSION_MODULE_MISSING_MARKER,
  SESSION_READY_MARKER,
  hostSessionScript,
} from './session-invocation.js';

const pwsh = findPwsh(process.env);
const withPwsh = 'missing' in pwsh ? test.skip : test;
if ('missing' in pwsh) console.log(`session module check tests skipped: ${pwsh.missing}`);

/** Runs the plain session script in `cwd` with stdin closed. On Linux, `C:\...` is a file name in `cwd`. */
async function runSession(cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { remotePath, sha256 } = await loadHostModule();
  const command = encodePowerShellCommand(hostSessionScript({ modulePath: remotePath, sha256 }, false));
  const args = command.split(' ').slice(1);
  const r = spawnSync((pwsh as { path: string }).path, args, { cwd, input: '', encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

withPwsh('no module at its path: the marker on stdout, exit 3, nothing on stderr', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wmco-session-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const r = await runSession(dir);
  t.is(r.status, 3);
  t.is(r.stdout.trim(), SESSION_MODULE_MISSING_MARKER);
  t.is(r.stderr, '');
});

withPwsh('a module with another hash: the marker line names the hash, exit 3', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wmco-session-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { remotePath } = await loadHostModule();
  writeFileSync(join(dir, remotePath), 'function Invoke-WmcoHost { }');
  const r = await runSession(dir);
  t.is(r.status, 3);
  t.regex(r.stdout.trim(), new RegExp(`^${SESSION_MODULE_MISSING_MARKER} .*has SHA-256 [0-9a-f]{64}$`));
  t.false(r.stdout.includes(SESSION_READY_MARKER));
});
