import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// FIDELITY.md is the ledger of what each simulated behaviour stands for: every row must say how it was
// checked (one of the four kinds its header defines), and every test file it names must exist.

const SIM = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = join(SIM, '..');
const HEADER = '| behaviour | real thing it stands for | how it was checked | known differences |';
const KINDS = /real client|real server|upstream (source|docs)|only simulated, never checked/;

interface Row {
  readonly line: number;
  readonly cells: string[];
}

function rows(md: string): Row[] {
  const out: Row[] = [];
  let inTable = false;
  md.split('\n').forEach((text, i) => {
    if (text === HEADER) inTable = true;
    else if (!text.startsWith('|')) inTable = false;
    else if (inTable && !/^\|[-| ]+\|$/.test(text)) {
      out.push({
        line: i + 1,
        cells: text
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((c) => c.trim()),
      });
    }
  });
  return out;
}

function testFiles(dir: string, acc: Set<string> = new Set()): Set<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    if (e.isDirectory()) testFiles(join(dir, e.name), acc);
    else if (e.name.endsWith('.test.ts')) acc.add(e.name);
  }
  return acc;
}

test('every ledger row has four cells and names how it was checked', (t) => {
  const all = rows(readFileSync(join(SIM, 'FIDELITY.md'), 'utf8'));
  t.true(all.length >= 30, `only ${all.length} rows`);
  for (const r of all) {
    t.is(r.cells.length, 4, `FIDELITY.md:${r.line} has ${r.cells.length} cells`);
    t.true(
      r.cells.every((c) => c !== ''),
      `FIDELITY.md:${r.line} has an empty cell`,
    );
    t.regex(r.cells[2] ?? '', KINDS, `FIDELITY.md:${r.line} does not say how it was checked`);
  }
});

test('every test file the ledger names exists', (t) => {
  const md = readFileSync(join(SIM, 'FIDELITY.md'), 'utf8');
  const named = new Set([...md.matchAll(/`([\w.-]+\.test\.ts)`/g)].map((m) => m[1] ?? ''));
  t.true(named.size > 10);
  const present = testFiles(PACKAGES);
  t.deepEqual(
    [...named].filter((f) => !present.has(f)),
    [],
  );
});
