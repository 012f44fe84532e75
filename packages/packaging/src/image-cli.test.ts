import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { REPO_ROOT } from './repo-root.js';

// `wmco` and `kubectl wmco` on the image's PATH. No image can be built here, so the Containerfile's own
// launcher step runs in a temporary folder standing for /out, with this machine's node as NODE_BIN and
// the workspace's built operator standing for /app, and the launchers it writes are run.
const run = promisify(execFile);

async function containerfile(): Promise<string> {
  return (await readFile(join(REPO_ROOT, 'Containerfile'), 'utf8')).replace(/\\\n/g, ' ');
}

test('the final image puts /app/bin first on PATH', async (t) => {
  const text = await containerfile();
  const finalStage = text.slice(text.lastIndexOf('\nFROM '));
  t.regex(finalStage, /^ENV PATH=\/app\/bin:/m);
});

test('the Containerfile’s launchers run wmco and kubectl wmco with the named node, no /usr/bin/env', async (t) => {
  const step = /^RUN (mkdir -p \/out\/bin .*)$/m.exec(await containerfile())?.[1];
  if (step === undefined) return t.fail('the Containerfile has no launcher step writing /out/bin');
  const out = await mkdtemp(join(tmpdir(), 'wmco-image-bin-'));
  t.teardown(() => rm(out, { recursive: true, force: true }));
  const app = join(REPO_ROOT, 'packages', 'operator');
  const script = step.replaceAll('/out/', `${out}/`).replaceAll('/app/', `${app}/`);
  await run('sh', ['-c', script], { env: { ...process.env, NODE_BIN: process.execPath } });
  for (const name of ['wmco', 'kubectl-wmco']) {
    const file = join(out, 'bin', name);
    t.is((await stat(file)).mode & 0o777, 0o755, `${name} is executable by everyone`);
    t.true(
      (await readFile(file, 'utf8')).startsWith(`#!${process.execPath}\n`),
      `${name} names node by path`,
    );
  }
  t.is((await run(join(out, 'bin', 'wmco'), ['--version'])).stdout, '0.1.0\n');
  t.regex((await run(join(out, 'bin', 'kubectl-wmco'), ['--help'])).stdout, /^Usage: kubectl wmco /m);
});
