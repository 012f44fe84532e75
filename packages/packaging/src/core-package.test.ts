import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import { CONSUMER_FILES } from './core-consumer.js';
import { REPO_ROOT } from './repo-root.js';

// `pnpm pack` of @wmco/core (the built workspace), then a fresh project outside the workspace that installs
// the tarball offline from the pnpm store the workspace filled (no registry), compiles a provider and a host
// process against the package's public types with tsc, and runs them.

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(cmd: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, [...args], { cwd, timeout: 240_000, maxBuffer: 2 ** 24 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

const pnpm = existsSync(join(REPO_ROOT, '.toolchain', 'bin', 'pnpm'))
  ? join(REPO_ROOT, '.toolchain', 'bin', 'pnpm')
  : 'pnpm';

interface Manifest {
  readonly private?: boolean;
  readonly license?: string;
  readonly repository?: unknown;
  readonly dependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

async function writeConsumer(dir: string, tarball: string): Promise<void> {
  for (const [path, text] of Object.entries(CONSUMER_FILES)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text.replace('CORE_TARBALL', tarball));
  }
}

test('the packed @wmco/core installs offline in a fresh project that builds and runs a provider with it', async (t) => {
  t.timeout(300_000);
  const root = await mkdtemp(join(tmpdir(), 'wmco-pack-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const packed = await run(
    pnpm,
    ['pack', '--pack-destination', root, '--json'],
    join(REPO_ROOT, 'packages/core'),
  );
  if (packed.code !== 0) return t.fail(`pnpm pack failed: ${packed.stderr}${packed.stdout}`);
  const { filename, files } = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] };
  const paths = files.map((f) => f.path);
  for (const p of ['LICENSE', 'dist/index.d.ts', 'dist/provider/index.d.ts', 'dist/testing/index.d.ts']) {
    t.true(paths.includes(p), `the tarball has ${p}`);
  }
  t.deepEqual(
    paths.filter((p) => /\.test\.|\.map$|^src\//.test(p)),
    [],
    'no tests, sources or maps',
  );

  const app = join(root, 'consumer');
  await writeConsumer(app, filename);
  const store = (await run(pnpm, ['store', 'path'], REPO_ROOT)).stdout.trim();
  const install = await run(
    pnpm,
    ['install', '--offline', '--no-frozen-lockfile', '--store-dir', store, '--reporter=append-only'],
    app,
  );
  if (install.code !== 0) return t.fail(`offline install failed: ${install.stderr}${install.stdout}`);

  // What a registry would see: publishable, licensed, no workspace ranges, tree-sitter only an optional peer.
  const installed = join(app, 'node_modules', '@wmco', 'core');
  const manifestText = await readFile(join(installed, 'package.json'), 'utf8');
  const manifest = JSON.parse(manifestText) as Manifest;
  t.not(manifest.private, true, 'a private package cannot be published');
  t.is(manifest.license, 'Apache-2.0');
  t.truthy(manifest.repository);
  t.false(manifestText.includes('workspace:'));
  t.false('tree-sitter' in (manifest.dependencies ?? {}));
  t.true(manifest.peerDependenciesMeta?.['tree-sitter-powershell']?.optional);
  t.is(
    await readFile(join(installed, 'LICENSE'), 'utf8'),
    await readFile(join(REPO_ROOT, 'LICENSE'), 'utf8'),
  );
  const virtualStore = await readdir(join(app, 'node_modules', '.pnpm'));
  t.deepEqual(
    virtualStore.filter((d) => d.startsWith('tree-sitter')),
    [],
    'optional peers are not installed',
  );

  const tsc = await run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', '.'], app);
  t.is(tsc.code, 0, `tsc: ${tsc.stdout}${tsc.stderr}`);
  const main = await run(process.execPath, ['dist/main.js'], app);
  t.is(main.code, 0, main.stderr);
  const result = JSON.parse(main.stdout) as { refused: string };
  t.like(result, {
    contract: '1.0.0',
    capabilities: ['platform.machine-access', 'platform.platform-prerequisites'],
    notes: ['connects as Administrator'],
  });
  t.regex(
    result.refused,
    /^provider 'future' supports provider contract \^2\.0\.0, but this @wmco\/core implements/,
  );

  const kit = await run(process.execPath, ['test-kit.mjs'], app);
  t.is(kit.code, 0, kit.stderr);
  const { name, message } = JSON.parse(kit.stdout) as { name?: string; message?: string };
  t.is(name, 'MissingPeerDependencyError');
  t.regex(
    message ?? '',
    /^powershellSyntaxErrors needs tree-sitter and tree-sitter-powershell, optional peer/,
  );
});
