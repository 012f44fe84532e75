#!/usr/bin/env node
// Chooses the built-in providers an image contains (the Containerfile's PROVIDERS build argument). In
// the workspace at --root (default: this repository) it
//   1. writes packages/operator/baked-providers.json, which the operator reads at start, and
//   2. removes the other @wmco/provider-* packages from packages/operator/package.json's dependencies,
//      so that a following `pnpm deploy --prod` leaves them out of the image.
// Run it on a build tree, after `tsc -b` and before `pnpm deploy`; never on a working checkout.
// Usage: node scripts/select-providers.mjs --providers aws,none [--root DIR]
//        (`all` selects every provider; ids are matched case-insensitively)
/* eslint-disable @typescript-eslint/explicit-function-return-type -- plain JavaScript, run before any build */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const PREFIX = '@wmco/provider-';

function fail(message) {
  process.stderr.write(`select-providers: ${message}\n`);
  process.exit(2);
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return fail(`cannot read ${path}: ${err.message}`);
  }
}

let args;
try {
  args = parseArgs({
    options: { providers: { type: 'string' }, root: { type: 'string' } },
    strict: true,
  }).values;
} catch (err) {
  fail(`${err.message}\nusage: select-providers.mjs --providers <id,id,...|all> [--root DIR]`);
}
if (args.providers === undefined) fail('--providers is required (comma-separated ids, or all)');

const root = resolve(args.root ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const operatorDir = join(root, 'packages/operator');
const bakedPath = join(operatorDir, 'baked-providers.json');
const pkgPath = join(operatorDir, 'package.json');
const baked = readJson(bakedPath);
const pkg = readJson(pkgPath);
const known = baked.providers;
if (!Array.isArray(known) || known.length === 0) fail(`${bakedPath} lists no providers`);

const wanted = args.providers
  .split(',')
  .map((s) => s.trim().toLowerCase())
  .filter((s) => s !== '');
if (wanted.length === 0) fail('PROVIDERS is empty: choose at least one provider');
const selected = wanted.includes('all') ? known : known.filter((id) => wanted.includes(id));
const unknown = wanted.filter((id) => id !== 'all' && !known.includes(id));
if (unknown.length > 0) {
  fail(`unknown provider(s) ${unknown.join(', ')}; this tree has: ${known.join(', ')}`);
}
const deps = pkg.dependencies ?? {};
const missing = selected.filter((id) => !(PREFIX + id in deps));
if (missing.length > 0)
  fail(`${pkgPath} has no dependency on ${missing.map((id) => PREFIX + id).join(', ')}`);

const dropped = known.filter((id) => !selected.includes(id));
for (const id of dropped) delete deps[PREFIX + id];
writeFileSync(pkgPath, `${JSON.stringify(pkg, undefined, 2)}\n`);
writeFileSync(bakedPath, `${JSON.stringify({ providers: selected }, undefined, 2)}\n`);
process.stdout.write(
  `providers baked in: ${selected.join(', ')}${dropped.length ? `; left out: ${dropped.join(', ')}` : ''}\n`,
);
