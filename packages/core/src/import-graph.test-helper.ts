import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** One relative import of one file: who imports whom, and whether only types cross. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

// `import … from '…'` / `export … from '…'` as prettier writes them (verbatimModuleSyntax keeps `type`).
const CLAUSE = String.raw`(type\s+)?(\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+\w+))?)`;
const FROM = new RegExp(String.raw`^(?:import|export)\s+${CLAUSE}\s+from\s+'([^']+)';`, 'gm');
const BARE = /^import\s+'([^']+)';/gm;
const DYNAMIC = /\bimport\(\s*'([^']+)'\s*\)/g;

/** Every non-test .ts file under root, as paths relative to root with '/' separators. */
export function sourceFiles(root: string): string[] {
  const entries = readdirSync(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .filter((e) => !/\.test(-helper)?\.ts$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** True when every specifier of a braced clause is marked `type`. */
function allTypes(clause: string): boolean {
  if (!clause.startsWith('{')) return false;
  const names = clause
    .slice(1, -1)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return names.length > 0 && names.every((s) => s.startsWith('type '));
}

/** The relative imports of one file's text, resolved to paths relative to root. */
export function importsOf(file: string, text: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const add = (spec: string, typeOnly: boolean): void => {
    if (!spec.startsWith('.')) return;
    const to = join(dirname(file), spec).split(sep).join('/').replace(/\.js$/, '.ts');
    edges.push({ from: file, to, typeOnly });
  };
  for (const m of text.matchAll(FROM)) {
    add(m[3] ?? '', m[1] !== undefined || allTypes(m[2] ?? ''));
  }
  for (const m of text.matchAll(BARE)) add(m[1] ?? '', false);
  for (const m of text.matchAll(DYNAMIC)) add(m[1] ?? '', false);
  return edges;
}

/** Every relative import of every non-test file under root. */
export function importGraph(root: string): ImportEdge[] {
  return sourceFiles(root).flatMap((f) => importsOf(f, readFileSync(join(root, f), 'utf8')));
}

/**
 * The room of a file: its first folder, or `sources/<name>` for a source; a file at the top
 * (index.ts, di.ts) is a room of its own.
 */
export function roomOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return file;
  if (parts[0] === 'sources' && parts.length > 2) return `sources/${parts[1]}`;
  return parts[0] ?? file;
}

/**
 * The cycles of a directed graph given as edges: its strongly connected components of more than one
 * node (Tarjan), each sorted, in sorted order. Empty when the graph is acyclic (self-loops aside).
 */
export function cycles(edges: readonly (readonly [string, string])[]): string[][] {
  const next = new Map<string, string[]>();
  for (const [a, b] of edges) next.set(a, [...(next.get(a) ?? []), b]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    for (const n of next.get(node) ?? []) {
      if (!index.has(n)) visit(n);
      if (stack.includes(n)) low.set(node, Math.min(low.get(node) ?? 0, low.get(n) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = stack.splice(stack.lastIndexOf(node));
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}
