#!/usr/bin/env node
// `pnpm bench <name>`: runs packages/<pkg>/dist/bench/<name>.js (build first: `pnpm build`).
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const name = process.argv[2];
// A built benchmark counts only while its source exists: a dist/ left from before a benchmark moved to
// another package (e.g. @wmco/operator's, before @wmco/world) neither runs nor makes a name ambiguous.
const found = readdirSync(join(root, 'packages'))
  .filter((pkg) => existsSync(join(root, 'packages', pkg, 'src', 'bench', `${name}.ts`)))
  .map((pkg) => join(root, 'packages', pkg, 'dist', 'bench', `${name}.js`))
  .filter((file) => existsSync(file));
if (!name || found.length !== 1) {
  const all = readdirSync(join(root, 'packages')).flatMap((pkg) => {
    const dir = join(root, 'packages', pkg, 'dist', 'bench');
    return existsSync(dir)
      ? readdirSync(dir)
          .filter(
            (f) =>
              f.endsWith('.js') &&
              !f.includes('-') &&
              existsSync(join(dir, '..', '..', 'src', 'bench', `${f.slice(0, -3)}.ts`)),
          )
          .map((f) => f.slice(0, -3))
      : [];
  });
  console.error(
    name && found.length > 1
      ? `bench '${name}' exists in several packages: ${found.join(', ')}`
      : `usage: pnpm bench <name>; built benchmarks: ${all.join(', ') || '(none; run pnpm build)'}`,
  );
  process.exit(2);
}
const run = spawnSync(process.execPath, [found[0], ...process.argv.slice(3)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
