// Test helper: parses PowerShell with tree-sitter-powershell and lists the syntax errors it finds.
// (A shared `powershellSyntaxErrors` is planned in @wmco/core/testing; this one is local to desired/.)
import Parser from 'tree-sitter';
// The package's "main"/"types" name a directory, which NodeNext resolution does not follow: import the file.
import PowerShell from 'tree-sitter-powershell/bindings/node/index.js';

let parser: Parser | undefined;

function powershellParser(): Parser {
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(PowerShell);
  }
  return parser;
}

/** Every ERROR or MISSING node in `script`, as `row:column: text`; empty when the script parses cleanly. */
export function powershellSyntaxErrors(script: string): string[] {
  const tree = powershellParser().parse(script);
  const errors: string[] = [];
  const visit = (node: Parser.SyntaxNode): void => {
    if (node.isError || node.isMissing) {
      const at = `${node.startPosition.row + 1}:${node.startPosition.column + 1}`;
      errors.push(`${at}: ${node.isMissing ? 'missing ' + node.type : node.text.slice(0, 60)}`);
      return;
    }
    if (node.hasError) node.children.forEach(visit);
  };
  visit(tree.rootNode);
  if (errors.length === 0 && tree.rootNode.hasError) errors.push('parse error');
  return errors;
}
