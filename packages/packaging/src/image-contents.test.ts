import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from './repo-root.js';

// There is no container engine here, so the image's file list is derived the way the Containerfile builds
// it: its `pnpm deploy --prod` step (run offline from the built workspace) and its clean-up, into a
// temporary folder that stands for the image's /app. (The provider selection step before it only drops
// providers; with the default of all six it changes nothing.)

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(cmd: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, [...args], { cwd, timeout: 45_000, maxBuffer: 2 ** 24 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** The Containerfile's build line that produces /out, and the paths its clean-up removes from it. */
async function containerfileSteps(): Promise<{ deploy: string[]; removed: string[] }> {
  const text = (await readFile(join(REPO_ROOT, 'Containerfile'), 'utf8')).replace(/\\\n/g, ' ');
  const deploy = /pnpm (--filter @wmco\/operator deploy --prod) \/out/.exec(text);
  const cleanup = /rm -rf ((?:\/out\/\S+\s*)+)/.exec(text);
  if (!deploy || !cleanup) throw new Error('the Containerfile no longer has the deploy and clean-up steps');
  return {
    deploy: deploy[1]!.split(' '),
    removed: cleanup[1]!
      .trim()
      .split(/\s+/)
      .map((p) => p.replace(/^\/out\//, '')),
  };
}

const pnpm = existsSync(join(REPO_ROOT, '.toolchain', 'bin', 'pnpm'))
  ? join(REPO_ROOT, '.toolchain', 'bin', 'pnpm')
  : 'pnpm';

test('the image built from the Containerfile holds no @wmco/sim and no tree-sitter, and `wmco sim` there says why', async (t) => {
  const { deploy, removed } = await containerfileSteps();
  const root = await mkdtemp(join(tmpdir(), 'wmco-image-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const app = join(root, 'app');
  const deployed = await run(pnpm, [...deploy, '--offline', app], REPO_ROOT);
  if (deployed.code !== 0) return t.fail(`pnpm deploy failed: ${deployed.stderr}${deployed.stdout}`);
  for (const p of removed) await rm(join(app, p), { recursive: true, force: true });
  const files = await listFiles(app);
  // The simulated world's orchestration and the benchmarks are @wmco/world's, which depends on the
  // operator: nothing of it is deployed, and the Containerfile has nothing to delete for it.
  t.deepEqual(
    files.filter((f) => /^dist\/(world|bench)(\/|$)|(^|\/)@wmco[/+]world(\/|@|$)/.test(f)),
    [],
    'no world/ or bench/ folder and no @wmco/world in the image',
  );
  t.false(
    removed.some((p) => /^dist\/(world|bench)$/.test(p)),
    'the clean-up step removes no world/bench code',
  );
  const deployedNames = await Promise.all(
    files
      .filter((f) => f.startsWith('node_modules/') && f.endsWith('/package.json'))
      .map(async (m) => (JSON.parse(await readFile(join(app, m), 'utf8')) as { name?: string }).name),
  );
  t.false(deployedNames.includes('@wmco/world'), 'no package named @wmco/world in the image');

  // The listing is real: the operator and its runtime dependencies are there.
  t.true(files.includes('dist/main.js'));
  t.true(files.includes('node_modules/@wmco/core'));
  t.true(files.some((f) => /node_modules\/ssh2\/package\.json$/.test(f)));
  const sim = files.filter((f) => /(^|\/)@wmco[/+]sim(\/|@|$)/.test(f));
  t.deepEqual(sim, [], 'no @wmco/sim file in the image');
  // tree-sitter and its PowerShell grammar are optional peers of @wmco/core, used only by its test kit.
  t.deepEqual(
    files.filter((f) => /(^|\/)tree-sitter/.test(f)),
    [],
    'no tree-sitter file in the image',
  );
  for (const m of files.filter((f) => f.startsWith('node_modules/') && f.endsWith('/package.json'))) {
    const { name } = JSON.parse(await readFile(join(app, m), 'utf8')) as { name?: string };
    if (name === '@wmco/sim') t.fail(`${m} is @wmco/sim`);
    if (name?.startsWith('tree-sitter')) t.fail(`${m} is ${name}`);
  }

  const main = join(app, 'dist', 'main.js');
  const version = await run(process.execPath, [main, 'version'], app);
  t.is(version.code, 0, version.stderr);
  const simRun = await run(process.execPath, [main, 'sim'], app);
  t.not(simRun.code, 0);
  t.regex(simRun.stderr, /wmco sim needs the simulated world \(@wmco\/world and @wmco\/sim\)/);
});
