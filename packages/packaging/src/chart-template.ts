import { stringify } from 'yaml';

/**
 * A renderer for the small subset of Go templates (with Helm's sprig helpers) that charts/wmco uses,
 * because `helm` is not available from the registries this project can reach. Supported: text,
 * `{{ pipeline }}`, `{{- ... -}}` whitespace trimming, `{{/* comment *\/}}`, `{{ if }}`/`{{ else }}`/
 * `{{ end }}`, fields of `.Values`, `.Release`, `.Chart`, string and number literals, and the functions
 * `toYaml`, `nindent`, `indent`, `quote` and `join`. Anything else is a TemplateError, so a chart that
 * grows past the subset fails its test instead of rendering wrongly.
 */
export class TemplateError extends Error {
  constructor(source: string, message: string) {
    super(`${source}: ${message}`);
    this.name = 'TemplateError';
  }
}

type Node =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'output'; readonly pipeline: string }
  | { readonly kind: 'if'; readonly cond: string; readonly then: Node[]; readonly otherwise: Node[] };

/** Text before an action, or an action (the text between `{{` and `}}`). */
type Token = { readonly text: string; readonly action?: string };

function tokenize(template: string, source: string): Token[] {
  const tokens: Token[] = [];
  const re = /\{\{(-\s)?([\s\S]*?)(\s-)?\}\}/g;
  let last = 0;
  let trimNext = false;
  for (let m = re.exec(template); m; m = re.exec(template)) {
    let text = template.slice(last, m.index);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (m[1]) text = text.replace(/\s+$/, '');
    tokens.push({ text }, { text: '', action: (m[2] ?? '').trim() });
    trimNext = Boolean(m[3]);
    last = re.lastIndex;
  }
  const rest = template.slice(last);
  if (rest.includes('{{')) throw new TemplateError(source, 'unclosed action "{{"');
  tokens.push({ text: trimNext ? rest.replace(/^\s+/, '') : rest });
  return tokens;
}

type IfNode = Extract<Node, { kind: 'if' }>;

/** Builds the tree of if/else/end blocks; `stack` holds the open ifs. */
class TreeBuilder {
  readonly root: Node[] = [];
  private readonly stack: { node: IfNode; inElse: boolean }[] = [];

  constructor(private readonly source: string) {}

  private current(): Node[] {
    const top = this.stack.at(-1);
    if (!top) return this.root;
    return top.inElse ? top.node.otherwise : top.node.then;
  }

  text(text: string): void {
    if (text !== '') this.current().push({ kind: 'text', text });
  }

  action(action: string): void {
    if (action.startsWith('/*')) {
      if (!action.endsWith('*/')) throw new TemplateError(this.source, 'unterminated comment');
    } else if (action.startsWith('if ')) {
      const node: IfNode = { kind: 'if', cond: action.slice(3).trim(), then: [], otherwise: [] };
      this.current().push(node);
      this.stack.push({ node, inElse: false });
    } else if (action === 'else' || action === 'end') {
      this.close(action);
    } else {
      this.current().push({ kind: 'output', pipeline: action });
    }
  }

  private close(action: 'else' | 'end'): void {
    const top = this.stack.at(-1);
    if (!top) throw new TemplateError(this.source, `"{{ ${action} }}" without "{{ if }}"`);
    if (action === 'end') this.stack.pop();
    else if (top.inElse) throw new TemplateError(this.source, 'two "{{ else }}" in one "{{ if }}"');
    else top.inElse = true;
  }

  finish(): Node[] {
    if (this.stack.length > 0) throw new TemplateError(this.source, '"{{ if }}" without "{{ end }}"');
    return this.root;
  }
}

function parse(tokens: readonly Token[], source: string): Node[] {
  const builder = new TreeBuilder(source);
  for (const tok of tokens) {
    if (tok.action === undefined) builder.text(tok.text);
    else builder.action(tok.action);
  }
  return builder.finish();
}

/** The data a template sees: `.Values`, `.Release`, `.Chart`. */
export type TemplateData = Readonly<Record<string, unknown>>;

function splitArgs(command: string, source: string): string[] {
  const args = command.match(/"(?:[^"\\]|\\.)*"|[^\s]+/g) ?? [];
  if (args.join(' ').length === 0) throw new TemplateError(source, 'empty command in a pipeline');
  return args;
}

function lookup(path: string, data: TemplateData, source: string): unknown {
  let value: unknown = data;
  for (const part of path.slice(1).split('.')) {
    if (typeof value !== 'object' || value === null || !(part in value)) {
      throw new TemplateError(source, `no value at "${path}" (missing "${part}")`);
    }
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function term(arg: string, data: TemplateData, source: string): unknown {
  if (arg.startsWith('"')) return JSON.parse(arg) as string;
  if (/^-?\d+$/.test(arg)) return Number(arg);
  if (arg.startsWith('.')) return lookup(arg, data, source);
  throw new TemplateError(source, `unsupported term "${arg}"`);
}

function pad(n: unknown, source: string): string {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    throw new TemplateError(source, `indent width must be a non-negative integer, got ${String(n)}`);
  }
  return ' '.repeat(n);
}

const ARITY: Readonly<Record<string, number>> = { toYaml: 1, quote: 1, nindent: 2, indent: 2, join: 2 };

function call(fn: string, args: readonly unknown[], source: string): unknown {
  const want = ARITY[fn] ?? 0;
  if (args.length !== want)
    throw new TemplateError(source, `${fn} takes ${want} argument(s), got ${args.length}`);
  const [a, b] = args;
  if (fn === 'toYaml') return stringify(a, { sortMapEntries: true }).replace(/\n$/, '');
  if (fn === 'quote') return JSON.stringify(String(a));
  if (fn === 'join') {
    if (!Array.isArray(b)) throw new TemplateError(source, 'join needs a list');
    return b.map(String).join(String(a));
  }
  const indented = String(b)
    .split('\n')
    .map((line) => pad(a, source) + line)
    .join('\n');
  return fn === 'nindent' ? `\n${indented}` : indented;
}

function evaluate(pipeline: string, data: TemplateData, source: string): unknown {
  let value: unknown;
  pipeline.split('|').forEach((command, i) => {
    const [head, ...rest] = splitArgs(command.trim(), source);
    if (head === undefined) throw new TemplateError(source, 'empty command');
    if (!/^[a-zA-Z]/.test(head)) {
      if (rest.length > 0 || i > 0) throw new TemplateError(source, `"${head}" is not a function`);
      value = term(head, data, source);
      return;
    }
    if (!(head in ARITY)) throw new TemplateError(source, `unsupported function "${head}"`);
    const args = rest.map((a) => term(a, data, source));
    if (i > 0) args.push(value);
    value = call(head, args, source);
  });
  return value;
}

/** Go template truth: false, 0, nil and empty strings, lists and maps are false. */
function truthy(value: unknown): boolean {
  return typeof value === 'object' && value !== null ? Object.keys(value).length > 0 : Boolean(value);
}

function print(value: unknown, source: string): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  throw new TemplateError(source, `cannot print ${value === null ? 'null' : typeof value}; use toYaml`);
}

function run(nodes: readonly Node[], data: TemplateData, source: string): string {
  return nodes
    .map((node) => {
      if (node.kind === 'text') return node.text;
      if (node.kind === 'output') return print(evaluate(node.pipeline, data, source), source);
      const branch = truthy(evaluate(node.cond, data, source)) ? node.then : node.otherwise;
      return run(branch, data, source);
    })
    .join('');
}

/** Renders one template; `source` names it in errors. */
export function renderTemplate(template: string, data: TemplateData, source: string): string {
  return run(parse(tokenize(template, source), source), data, source);
}
