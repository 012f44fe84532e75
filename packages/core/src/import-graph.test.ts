import test from 'ava';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import {
  cycles,
  importGraph,
  importsOf,
  roomOf,
  sourceFiles,
  type ImportEdge,
} from './import-graph.test-helper.js';

// ARCHITECTURE §3: a source only says which instances exist; everything after it is shared. So no room
// imports a source (only the package's root barrel re-exports them), and rooms form no cycle.
//
// Between rooms, no cycle of any import, types included: a room that names another's type depends on it as
// much as one that calls it (a port's types live on the lower side: `host/protocol` holds the Plan that
// `converge` makes and `host` applies; `desired` holds the ClusterFacts that `cluster` reads). Between the
// files of one room, only value imports are checked for cycles: those are what run, in that order, when a
// module loads; files of one room may name each other's types. The arrow into a source is checked on every
// import, types included: a shared room that names a source's type depends on that source.

// The test runs from dist/; the sources it reads are the package's src/.
const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** The package's barrels (index.ts, public; internal.ts, the operator's). */
const COMPOSITION = new Set(['index.ts', 'internal.ts']);
/** The room that composes the sources and the shared rooms into controllers (`createWmcoCore`). */
const COMPOSE_ROOM = 'compose';

/** A file that may import a source: a barrel, or the composition room. */
function composes(file: string): boolean {
  return COMPOSITION.has(file) || roomOf(file) === COMPOSE_ROOM;
}

function show(e: ImportEdge): string {
  return `${e.from} -> ${e.to}${e.typeOnly ? ' (type only)' : ''}`;
}

/** Each cycle of `edges` under `nodeOf`, with the file imports that run inside it. */
function cyclesOf(edges: readonly ImportEdge[], nodeOf: (file: string) => string): string[] {
  const pairs = edges.map((e) => [nodeOf(e.from), nodeOf(e.to)] as const).filter(([a, b]) => a !== b);
  return cycles(pairs).map((members) => {
    const inside = edges.filter((e) => {
      const [a, b] = [nodeOf(e.from), nodeOf(e.to)];
      return a !== b && members.includes(a) && members.includes(b);
    });
    return `${members.join(', ')}:\n    ${inside.map(show).join('\n    ')}`;
  });
}

test('no cycle of value imports between files', (t) => {
  const found = cyclesOf(
    importGraph(SRC).filter((e) => !e.typeOnly),
    (f) => f,
  );
  t.deepEqual(found, [], `files import each other:\n  ${found.join('\n  ')}`);
});

test('no cycle of imports between rooms, types included', (t) => {
  const found = cyclesOf(importGraph(SRC), roomOf);
  t.deepEqual(found, [], `rooms import each other:\n  ${found.join('\n  ')}`);
});

test('no file but the composition imports the package barrels (a room that did would reach the sources)', (t) => {
  const intoBarrels = importGraph(SRC).filter((e) => COMPOSITION.has(e.to) && !composes(e.from));
  t.deepEqual(intoBarrels.map(show), [], 'a room imports a package barrel');
});

test('no file imports the package by its own name (the graph would not see that arrow)', (t) => {
  const selfImports = sourceFiles(SRC).filter((f) =>
    /^(?:import|export)\b[^;]*?from\s+'@wmco\/core(?:\/[^']*)?';/m.test(readFileSync(`${SRC}${f}`, 'utf8')),
  );
  t.deepEqual(selfImports, []);
});

test('no room but the barrels and the composition imports a source (types included)', (t) => {
  const intoSources = importGraph(SRC).filter((e) => {
    const to = roomOf(e.to);
    return to.startsWith('sources/') && roomOf(e.from) !== to && !composes(e.from);
  });
  t.deepEqual(intoSources.map(show), [], 'a shared room imports a source');
});

test('only the barrels import the composition room (a shared room that did would reach the sources)', (t) => {
  const intoCompose = importGraph(SRC).filter(
    (e) => roomOf(e.to) === COMPOSE_ROOM && roomOf(e.from) !== COMPOSE_ROOM && !COMPOSITION.has(e.from),
  );
  t.deepEqual(intoCompose.map(show), [], 'a room imports the composition');
  t.true(
    importGraph(SRC).some((e) => roomOf(e.from) === COMPOSE_ROOM && roomOf(e.to).startsWith('sources/')),
    'the composition room composes the sources',
  );
});

test('the graph sees the rooms, the sources, and the barrel importing both', (t) => {
  const edges = importGraph(SRC);
  const rooms = new Set(edges.map((e) => roomOf(e.from)));
  for (const room of ['lifecycle', 'desired', 'sources/byoh', 'sources/machines'])
    t.true(rooms.has(room), room);
  t.true(edges.some((e) => COMPOSITION.has(e.from) && roomOf(e.to) === 'sources/byoh'));
  t.false(
    edges.some((e) => /\.test(-helper)?\.ts$/.test(e.from)),
    'tests are not part of the graph',
  );
});

test('importsOf: type-only clauses, mixed clauses, re-exports over several lines, parents', (t) => {
  const text = [
    "import type { A } from './a.js';",
    "import { type B, c } from '../b/b.js';",
    "import { type D, type E } from './d.js';",
    'export {',
    '  f,',
    '  type G,',
    "} from '../../f/index.js';",
    "export * from './h.js';",
    "import x from 'node:fs';",
    "const later = await import('./lazy.js');",
  ].join('\n');
  t.deepEqual(importsOf('lifecycle/sub/x.ts', text).map(show), [
    'lifecycle/sub/x.ts -> lifecycle/sub/a.ts (type only)',
    'lifecycle/sub/x.ts -> lifecycle/b/b.ts',
    'lifecycle/sub/x.ts -> lifecycle/sub/d.ts (type only)',
    'lifecycle/sub/x.ts -> f/index.ts',
    'lifecycle/sub/x.ts -> lifecycle/sub/h.ts',
    'lifecycle/sub/x.ts -> lifecycle/sub/lazy.ts',
  ]);
});

test('roomOf and cycles', (t) => {
  t.is(roomOf('sources/byoh/entry-admission.ts'), 'sources/byoh');
  t.is(roomOf('host/ssh/ssh-options.ts'), 'host');
  t.is(roomOf('di.ts'), 'di.ts');
  t.deepEqual(
    cycles([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['a', 'd'],
    ]),
    [],
  );
  t.deepEqual(
    cycles([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'b'],
      ['d', 'e'],
      ['e', 'f'],
      ['f', 'd'],
      ['c', 'd'],
    ]),
    [
      ['b', 'c'],
      ['d', 'e', 'f'],
    ],
  );
});
