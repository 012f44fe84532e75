import { callFunction, isTemplateFunction } from './template-functions.js';

/**
 * A renderer for the small subset of Go templates (with Helm's sprig helpers) that charts/wmco uses,
 * because `helm` is not available from the registries this project can reach. Supported: text,
 * `{{ pipeline }}`, `{{- ... -}}` whitespace trimming, `{{/* comment *\/}}`, `{{ if }}`/`{{ else }}`/
 * `{{ end }}`, `{{ define "name" }}` (top level only) with `include "name" <data>`, `.` and fields of
 * `.Values`, `.Release`, `.Chart`, string and number literals, and the functions of template-functions.ts.
 * Anything else is a TemplateError, so a chart that grows past the subset fails its test instead of
 * rendering wrongly.
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
type Block = { node: IfNode; inElse: boolean } | { define: string; body: Node[] };

/** Named templates (`{{ define }}`), shared by every template of a chart as in Helm. */
export type NamedTemplates = Map<string, readonly Node[]>;

/** Builds the tree of if/else/end and define/end blocks; `stack` holds the open blocks. */
class TreeBuilder {
  readonly root: Node[] = [];
  private readonly stack: Block[] = [];

  constructor(
    private readonly source: string,
    private readonly named: NamedTemplates,
  ) {}

  private current(): Node[] {
    const top = this.stack.at(-1);
    if (!top) return this.root;
    if ('define' in top) return top.body;
    return top.inElse ? top.node.otherwise : top.node.then;
  }

  private define(action: string): void {
    const name = /^define\s+("(?:[^"\\]|\\.)*")$/.exec(action)?.[1];
    if (name === undefined) throw new TemplateError(this.source, `bad "{{ ${action} }}"`);
    if (this.stack.length > 0) throw new TemplateError(this.source, '"{{ define }}" inside a block');
    this.stack.push({ define: JSON.parse(name) as string, body: [] });
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
    } else if (action.startsWith('define ')) {
      this.define(action);
    } else if (action === 'else' || action === 'end') {
      this.close(action);
    } else {
      this.current().push({ kind: 'output', pipeline: action });
    }
  }

  private close(action: 'else' | 'end'): void {
    const top = this.stack.at(-1);
    if (!top) throw new TemplateError(this.source, `"{{ ${action} }}" without "{{ if }}"`);
    if ('define' in top) {
      if (action === 'else') throw new TemplateError(this.source, '"{{ else }}" in a "{{ define }}"');
      if (this.named.has(top.define))
        throw new TemplateError(this.source, `template "${top.define}" defined twice`);
      this.named.set(top.define, top.body);
      this.stack.pop();
    } else if (action === 'end') this.stack.pop();
    else if (top.inElse) throw new TemplateError(this.source, 'two "{{ else }}" in one "{{ if }}"');
    else top.inElse = true;
  }

  finish(): Node[] {
    if (this.stack.length > 0) throw new TemplateError(this.source, 'a block without "{{ end }}"');
    return this.root;
  }
}

function parse(tokens: readonly Token[], source: string, named: NamedTemplates): Node[] {
  const builder = new TreeBuilder(source, named);
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

/** What evaluation needs besides the pipeline: the data `.` stands for, the template's name, the named templates. */
interface Scope {
  readonly data: unknown;
  readonly source: string;
  readonly named: NamedTemplates;
  /** Includes being expanded, to refuse a template that includes itself. */
  readonly including: readonly string[];
}

function term(arg: string, scope: Scope): unknown {
  if (arg.startsWith('"')) return JSON.parse(arg) as string;
  if (/^-?\d+$/.test(arg)) return Number(arg);
  if (arg === '.') return scope.data;
  if (arg.startsWith('.')) return lookup(arg, scope.data as TemplateData, scope.source);
  throw new TemplateError(scope.source, `unsupported term "${arg}"`);
}

function include(args: readonly unknown[], scope: Scope): string {
  const [name, data] = args;
  if (args.length !== 2 || typeof name !== 'string')
    throw new TemplateError(scope.source, 'include takes a template name and its data');
  const body = scope.named.get(name);
  if (!body) throw new TemplateError(scope.source, `no template named "${name}"`);
  if (scope.including.includes(name))
    throw new TemplateError(scope.source, `template "${name}" includes itself`);
  return run(body, { ...scope, data, including: [...scope.including, name] });
}

function call(fn: string, args: readonly unknown[], scope: Scope): unknown {
  if (fn === 'include') return include(args, scope);
  try {
    return callFunction(fn, args);
  } catch (e) {
    throw new TemplateError(scope.source, (e as Error).message);
  }
}

function evaluate(pipeline: string, scope: Scope): unknown {
  let value: unknown;
  pipeline.split('|').forEach((command, i) => {
    const [head, ...rest] = splitArgs(command.trim(), scope.source);
    if (head === undefined) throw new TemplateError(scope.source, 'empty command');
    if (!/^[a-zA-Z]/.test(head)) {
      if (rest.length > 0 || i > 0) throw new TemplateError(scope.source, `"${head}" is not a function`);
      value = term(head, scope);
      return;
    }
    if (head !== 'include' && !isTemplateFunction(head))
      throw new TemplateError(scope.source, `unsupported function "${head}"`);
    const args = rest.map((a) => term(a, scope));
    if (i > 0) args.push(value);
    value = call(head, args, scope);
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

function run(nodes: readonly Node[], scope: Scope): string {
  return nodes
    .map((node) => {
      if (node.kind === 'text') return node.text;
      if (node.kind === 'output') return print(evaluate(node.pipeline, scope), scope.source);
      const branch = truthy(evaluate(node.cond, scope)) ? node.then : node.otherwise;
      return run(branch, scope);
    })
    .join('');
}

/**
 * Renders one template; `source` names it in errors. Its `{{ define }}`s go into `named` (pass the map
 * that collectNamedTemplates filled from the chart's `_*.tpl` files, as Helm shares them chart-wide).
 */
export function renderTemplate(
  template: string,
  data: TemplateData,
  source: string,
  named: NamedTemplates = new Map(),
): string {
  const nodes = parse(tokenize(template, source), source, named);
  return run(nodes, { data, source, named, including: [] });
}

/** Reads the named templates of a helpers file (e.g. `_helpers.tpl`) into `named`; its text is dropped. */
export function collectNamedTemplates(template: string, source: string, named: NamedTemplates): void {
  parse(tokenize(template, source), source, named);
}
