// After a name moved between @wmco/core's entries: rewrites the imports from '@wmco/core' and
// '@wmco/core/internal' in the given files so that each name comes from the entry that exports it, the
// contract's names from '@wmco/core/provider' first, then '@wmco/core', then '@wmco/core/internal'.
// Reads packages/core/src/{provider/index,index,internal}.ts. Run prettier on the files afterwards.
// Usage: node scripts/split-core-imports.mjs . $(grep -rlE "from '@wmco/core(/internal)?'" --include=*.ts packages/operator packages/sim)
/* eslint-disable @typescript-eslint/explicit-function-return-type -- plain JavaScript, run by hand */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
const root = resolve(process.argv[2] ?? '.');
const ts = (await import(join(root, 'node_modules/typescript/lib/typescript.js'))).default;
const src = join(root, 'packages/core/src');
// The contract's names come from '@wmco/core/provider' even where '@wmco/core' re-exports their types.
const entries = {
  '@wmco/core/provider': 'provider/index.ts',
  '@wmco/core': 'index.ts',
  '@wmco/core/internal': 'internal.ts',
};
const prog = ts.createProgram(
  Object.values(entries).map((f) => join(src, f)),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    experimentalDecorators: true,
  },
);
const checker = prog.getTypeChecker();
const home = new Map();
for (const [spec, f] of Object.entries(entries)) {
  const sym = checker.getSymbolAtLocation(prog.getSourceFile(join(src, f)));
  for (const e of checker.getExportsOfModule(sym)) if (!home.has(e.name)) home.set(e.name, spec);
}
const SOURCES = ['@wmco/core', '@wmco/core/internal'];

/** The names of one import or export declaration, grouped by the entry that exports each. */
function groupByEntry(file, sf, nb) {
  const groups = new Map();
  for (const el of nb.elements) {
    const name = (el.propertyName ?? el.name).text;
    const dest = home.get(name);
    if (!dest) throw new Error(`${file}: ${name} is exported by no entry`);
    groups.set(dest, [...(groups.get(dest) ?? []), el.getText(sf)]);
  }
  return groups;
}

/** An import or export declaration from one of SOURCES: its keyword, type-only flag and named bindings. */
function declarationOf(st) {
  if (!SOURCES.includes(st.moduleSpecifier?.text)) return undefined;
  if (ts.isImportDeclaration(st)) {
    const clause = st.importClause;
    return { head: 'import', typeOnly: Boolean(clause?.isTypeOnly), nb: clause?.namedBindings };
  }
  if (ts.isExportDeclaration(st)) return { head: 'export', typeOnly: st.isTypeOnly, nb: st.exportClause };
  return undefined;
}

/** The replacement of one declaration, or undefined when it already imports from the right entry. */
function rewrite(file, sf, st) {
  const decl = declarationOf(st);
  if (!decl) return undefined;
  if (!decl.nb || !('elements' in decl.nb)) throw new Error(`${file}: not a named import`);
  const groups = groupByEntry(file, sf, decl.nb);
  if (groups.size === 1 && groups.has(st.moduleSpecifier.text)) return undefined;
  const head = `${decl.head} ${decl.typeOnly ? 'type ' : ''}`;
  const out = [...groups].map(([dest, els]) => `${head}{ ${els.join(', ')} } from '${dest}';`).join('\n');
  return [st.getStart(sf), st.getEnd(), out];
}

let changed = 0;
for (const file of process.argv.slice(3)) {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const edits = sf.statements.map((st) => rewrite(file, sf, st)).filter((e) => e !== undefined);
  if (edits.length === 0) continue;
  let out = text;
  for (const [s, e, r] of edits.reverse()) out = out.slice(0, s) + r + out.slice(e);
  writeFileSync(file, out);
  changed++;
}
console.log(`rewrote ${changed} files`);
