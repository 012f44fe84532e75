import test from 'ava';
import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureKubectl } from '@wmco/sim';
import { OPERATOR_MAIN } from '../operator-main.js';

// Runs the built CLI as a child process: `wmco sim --keep --kubeconfig-out FILE`, then kubectl against it.

const main = OPERATOR_MAIN;

function kubectl(
  kubeconfig: string,
  cacheDir: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'kubectl',
      [`--cache-dir=${cacheDir}`, ...args],
      { env: { PATH: process.env['PATH'] ?? '', HOME: cacheDir, KUBECONFIG: kubeconfig }, timeout: 20_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

test('wmco sim --keep writes a kubeconfig kubectl uses and stops cleanly on SIGTERM', async (t) => {
  const missing = ensureKubectl();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), 'wmco-sim-cli-'));
  const file = join(dir, 'admin.kubeconfig');
  const child = spawn(
    process.execPath,
    [main, 'sim', '--keep', '--kubeconfig-out', file, '--platform', 'AWS'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 30_000;
    while (!(existsSync(file) && out.includes('running;'))) {
      if (Date.now() > deadline) throw new Error(`no kubeconfig after 30 s; stdout: ${out} stderr: ${err}`);
      await sleep(50);
    }
    t.regex(out, /export KUBECONFIG=/);
    const nodes = await kubectl(file, join(dir, 'cache'), ['get', 'nodes', '-o', 'name']);
    t.is(nodes.code, 0, nodes.stderr);
    t.regex(nodes.stdout, /node\/master-0/);
    const infra = await kubectl(file, join(dir, 'cache'), ['get', 'infrastructure', 'cluster', '-o', 'yaml']);
    t.is(infra.code, 0, infra.stderr);
    t.regex(infra.stdout, /platform: AWS/);
  } finally {
    child.kill('SIGTERM');
  }
  t.is(await exited, 0, err);
  t.regex(out, /received SIGTERM, stopping/);
  t.regex(out, /simulated cluster stopped/);
});

test('wmco sim without --keep prints a summary and exits', async (t) => {
  const r = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    execFile(process.execPath, [main, 'sim'], { timeout: 60_000 }, (e, stdout) =>
      resolve({ code: e ? 1 : 0, stdout }),
    );
  });
  t.is(r.code, 0);
  t.regex(r.stdout, /simulated cluster up: https:\/\/127\.0\.0\.1:\d+/);
  t.regex(r.stdout, /simulated cluster stopped/);
});

test('wmco sim rejects a malformed platform', async (t) => {
  const r = await new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(process.execPath, [main, 'sim', '--platform', 'no such'], { timeout: 60_000 }, (e, _o, stderr) =>
      resolve({ code: e ? 1 : 0, stderr }),
    );
  });
  t.is(r.code, 1);
  t.regex(r.stderr, /--platform: "no such" is not a platform type name/);
});
