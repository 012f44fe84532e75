import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { staticPackages } from './static-packages.test-helper.js';
import { loadSimRun } from './sim-command.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..');

test('nothing the operator loads at start-up imports @wmco/sim or @wmco/world (not in the image)', async (t) => {
  // main.js loads one command module when it runs (command-table.ts): walk main.js and every command but sim.
  const commands = [
    'run',
    'status',
    'plan/plan',
    'preflight',
    'providers',
    'render/render',
    'reboot',
    'version',
  ];
  const packages = new Set<string>();
  for (const file of ['main.js', ...commands.map((c) => `cli/${c}-command.js`)]) {
    for (const p of await staticPackages(join(dist, file))) packages.add(p);
  }
  t.true(packages.has('@wmco/core'), 'the walk follows the imports');
  t.false(
    [...packages].some((p) => p.startsWith('@wmco/sim') || p.startsWith('@wmco/world')),
    [...packages].join(', '),
  );
  // The operator's own files never name @wmco/world in a static import (it depends on the operator).
  t.false((await staticPackages(join(dist, 'cli', 'sim-command.js'))).has('@wmco/world'));
  // The world's sim entry does import @wmco/sim: the walk would see it if main.js reached it statically.
  const simEntry = fileURLToPath(import.meta.resolve('@wmco/world/sim'));
  t.true((await staticPackages(simEntry)).has('@wmco/sim'));
});

test('without @wmco/sim, `wmco sim` fails with a message that says what is missing', async (t) => {
  const missing = Object.assign(new Error("Cannot find package '@wmco/world'"), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
  const err = await t.throwsAsync(loadSimRun(() => Promise.reject(missing)));
  t.regex(err.message, /wmco sim needs the simulated world \(@wmco\/world and @wmco\/sim\)/);
  t.regex(err.message, /run it from a source checkout: pnpm install && pnpm build && pnpm wmco sim/);
  t.is(err.cause, missing);
  const other = new Error('syntax error somewhere');
  t.is(await t.throwsAsync(loadSimRun(() => Promise.reject(other))), other, 'other errors pass through');
  t.is(typeof (await loadSimRun()), 'function', 'in a source checkout it loads');
});
