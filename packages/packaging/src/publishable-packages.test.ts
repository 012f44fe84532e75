import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { REPO_ROOT } from './repo-root.js';

// The packages the docs tell people to `pnpm add`: @wmco/core and the providers. core-package.test.ts
// packs and installs @wmco/core for real; this checks every publishable manifest statically.

interface Manifest {
  readonly name: string;
  readonly private?: boolean;
  readonly license?: string;
  readonly repository?: { readonly directory?: string };
  readonly files?: readonly string[];
  readonly exports?: Record<string, string | Record<string, string>>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

async function manifest(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as Manifest;
}

async function providerDirs(): Promise<string[]> {
  const names = await readdir(join(REPO_ROOT, 'packages'));
  return names.filter((n) => n.startsWith('provider-')).map((n) => `packages/${n}`);
}

/** Every file an `exports` entry points at. */
function exportTargets(m: Manifest): string[] {
  return Object.values(m.exports ?? {}).flatMap((v) => (typeof v === 'string' ? [v] : Object.values(v)));
}

test('@wmco/core and every provider are publishable: licensed, located, with a file list', async (t) => {
  const root = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
  for (const dir of ['packages/core', ...(await providerDirs())]) {
    const m = await manifest(dir);
    t.not(m.private, true, `${m.name} is not private`);
    t.is(m.license, root.license, `${m.name} has the repository's licence`);
    t.is(m.repository?.directory, dir, `${m.name} says where it lives`);
    t.true(m.files?.includes('dist/**/*.js') && m.files.includes('dist/**/*.d.ts'), `${m.name} ships dist/`);
    t.true(m.files?.includes('!dist/**/*.test.*'), `${m.name} leaves its tests out`);
    for (const target of exportTargets(m).filter((p) => p !== './package.json')) {
      t.regex(target, /^\.\/dist\/.+\.(js|d\.ts)$/, `${m.name} exports ${target} from dist/`);
    }
  }
});

test('providers take @wmco/core as a peer, never as their own dependency', async (t) => {
  for (const dir of await providerDirs()) {
    const m = await manifest(dir);
    t.truthy(m.peerDependencies?.['@wmco/core'], `${m.name} peer-depends on @wmco/core`);
    t.false('@wmco/core' in (m.dependencies ?? {}), `${m.name} does not bundle its own @wmco/core`);
  }
});

test('the image, the simulated world and these checks stay private', async (t) => {
  for (const dir of ['packages/operator', 'packages/sim', 'packages/packaging']) {
    t.true((await manifest(dir)).private, `${dir} is private`);
  }
});
