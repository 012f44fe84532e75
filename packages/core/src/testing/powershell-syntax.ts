import type Parser from 'tree-sitter';
import { importOptionalPeers, MissingPeerDependencyError, type OptionalPeer } from './optional-peers.js';

// tree-sitter and its PowerShell grammar are optional peer dependencies of @wmco/core: only this file
// needs them, so they are imported here (when the test kit is imported) and never by '@wmco/core' or
// '@wmco/core/provider'. The grammar's binding uses top-level await, so it is imported, not required; the
// full path avoids Node's warning about the package's extension-less "main".
const PEERS: readonly OptionalPeer[] = [
  { name: 'tree-sitter', specifier: 'tree-sitter' },
  { name: 'tree-sitter-powershell', specifier: 'tree-sitter-powershell/bindings/node/index.js' },
];
const loaded = await importOptionalPeers('powershellSyntaxErrors', PEERS, (s) => import(s));

let parser: Parser | undefined;

// One parser per process: parsing is synchronous, so tests that share it never interleave.
function sharedParser(): Parser {
  if (loaded instanceof MissingPeerDependencyError) throw loaded;
  if (!parser) {
    const [treeSitter, grammar] = loaded as [{ default: typeof Parser }, { default: Parser.Language }];
    parser = new treeSitter.default();
    parser.setLanguage(grammar.default);
  }
  return parser;
}

function excerpt(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 40 ? `${oneLine.slice(0, 37)}...` : oneLine;
}

function describeNode(node: Parser.SyntaxNode): string {
  const where = `line ${node.startPosition.row + 1}, column ${node.startPosition.column + 1}`;
  if (node.isMissing) return `${where}: missing '${node.type}'`;
  return `${where}: cannot parse '${excerpt(node.text)}'`;
}

function collect(node: Parser.SyntaxNode, out: string[]): void {
  if (node.type === 'ERROR' || node.isMissing) {
    out.push(describeNode(node));
    return;
  }
  for (const child of node.children) {
    if (child.hasError || child.isMissing) collect(child, out);
  }
}

/**
 * Parses `script` with the tree-sitter PowerShell grammar and returns one message per ERROR or MISSING
 * node (`line 3, column 5: cannot parse '...'`), in source order; empty when the script parses cleanly.
 * The grammar trips on `param(...)` followed by a statement on the same line: keep `param` blocks on
 * their own lines. A blank script is reported too: a snippet that says nothing is a mistake.
 * Throws MissingPeerDependencyError when tree-sitter or tree-sitter-powershell is not installed.
 */
export function powershellSyntaxErrors(script: string): string[] {
  if (script.trim() === '') return ['line 1, column 1: the script is empty'];
  // A callback input has no length limit (a plain string input is limited by the binding's buffer).
  const tree = sharedParser().parse((index: number) => script.slice(index, index + 8192));
  const errors: string[] = [];
  collect(tree.rootNode, errors);
  return errors;
}
