import { JSONPath } from 'jsonpath-plus';

/**
 * kubectl's JSONPath templates (`kubectl get -o jsonpath=...`, kubernetes.io "JSONPath Support"): literal
 * text with `{expression}` parts, `{range <expr>}...{end}` loops, and `{"\n"}` / `{'\t'}` string literals.
 * Expressions are kubectl's: `.items[*].metadata.name`, `$` for the root, `@` or a leading `.` for the
 * current object, `..name`, `[0]`, `[-1:]`, `[*]`, `['key.with.dots']`, `k8s\.io` escaped dots and
 * filters `[?(@.type=="Ready")]`; the paths themselves are evaluated by jsonpath-plus. As `kubectl get`
 * does, a key that is missing prints nothing, several results are joined by a space, and objects print
 * as JSON.
 */
export function renderJsonPath(template: string, data: unknown): string {
  const parts = parseTemplate(template);
  const [out, rest] = renderParts({ parts, root: data, template }, 0, data);
  if (rest !== parts.length) throw new Error(`jsonpath ${template}: {end} without {range}`);
  return out;
}

type Part =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'expr'; readonly expr: string }
  | { readonly kind: 'range'; readonly expr: string }
  | { readonly kind: 'end' };

function parseTemplate(template: string): Part[] {
  const parts: Part[] = [];
  let rest = template;
  for (let open = rest.indexOf('{'); open >= 0; open = rest.indexOf('{')) {
    const close = closingBrace(rest, open);
    if (close < 0) throw new Error(`jsonpath ${template}: unclosed {`);
    if (open > 0) parts.push({ kind: 'text', text: rest.slice(0, open) });
    parts.push(partOf(rest.slice(open + 1, close).trim()));
    rest = rest.slice(close + 1);
  }
  if (rest !== '') parts.push({ kind: 'text', text: rest });
  return parts;
}

/** The `}` closing the `{` at `open`, skipping quoted text (a filter may compare with "}"). */
function closingBrace(s: string, open: number): number {
  let quote: string | undefined;
  for (let i = open + 1; i < s.length; i++) {
    const c = s[i];
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '}') return i;
  }
  return -1;
}

function partOf(inner: string): Part {
  if (inner === 'end') return { kind: 'end' };
  if (inner.startsWith('range ')) return { kind: 'range', expr: inner.slice('range '.length).trim() };
  if (/^".*"$/s.test(inner)) return { kind: 'text', text: JSON.parse(inner) as string };
  if (/^'.*'$/s.test(inner)) return { kind: 'text', text: unescapeSingle(inner.slice(1, -1)) };
  return { kind: 'expr', expr: inner };
}

function unescapeSingle(s: string): string {
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'" };
  return s.replace(/\\(.)/g, (_, c: string) => escapes[c] ?? c);
}

interface Template {
  readonly parts: readonly Part[];
  readonly root: unknown;
  readonly template: string;
}

/** Renders parts from `start` until an `{end}` (or the last part); returns the text and where it stopped. */
function renderParts(t: Template, start: number, current: unknown): [string, number] {
  const { parts, root, template } = t;
  let out = '';
  for (let i = start; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.kind === 'end') return [out, i];
    if (part.kind === 'text') out += part.text;
    else if (part.kind === 'expr') out += evaluate(part.expr, root, current).map(printed).join(' ');
    else {
      for (const item of evaluate(part.expr, root, current)) out += renderParts(t, i + 1, item)[0];
      i = endOfRange(parts, i + 1, template);
    }
  }
  return [out, parts.length];
}

function endOfRange(parts: readonly Part[], start: number, template: string): number {
  let depth = 0;
  for (let i = start; i < parts.length; i++) {
    const kind = parts[i]!.kind;
    if (kind === 'range') depth++;
    else if (kind === 'end' && depth-- === 0) return i;
  }
  throw new Error(`jsonpath ${template}: {range} without {end}`);
}

function evaluate(expr: string, root: unknown, current: unknown): unknown[] {
  const fromRoot = expr.startsWith('$');
  const path = `$${toPlusPath(fromRoot ? expr.slice(1) : expr.replace(/^@/, ''))}`;
  if (path === '$') return [fromRoot ? root : current];
  const json = (fromRoot ? root : current) as null | boolean | number | string | object;
  if (json === null || typeof json !== 'object') return [];
  return JSONPath<unknown[]>({ path, json, wrap: true, eval: 'safe' });
}

/**
 * kubectl's path after `$` in jsonpath-plus's syntax: each dotted name (with `\.` as a dot inside it) as
 * `['name']`; `..`, `[...]` and filters as written.
 */
function toPlusPath(expr: string): string {
  let out = '';
  let i = 0;
  while (i < expr.length) {
    const c = expr[i]!;
    if (c === '[') {
      const close = closingBracket(expr, i);
      out += expr.slice(i, close + 1);
      i = close + 1;
    } else if (c === '.') {
      const recursive = expr[i + 1] === '.';
      i += recursive ? 2 : 1;
      const [name, next] = dottedName(expr, i);
      out += recursive ? `..${name === '' ? '' : quotedKey(name)}` : name === '' ? '' : quotedKey(name);
      i = next;
    } else {
      const [name, next] = dottedName(expr, i);
      out += quotedKey(name);
      i = next;
    }
  }
  return out;
}

function quotedKey(name: string): string {
  return name === '*' ? '[*]' : `['${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
}

function dottedName(expr: string, start: number): [string, number] {
  let name = '';
  let i = start;
  for (; i < expr.length; i++) {
    const c = expr[i];
    if (c === '\\' && expr[i + 1] === '.') {
      name += '.';
      i++;
    } else if (c === '.' || c === '[') break;
    else name += c;
  }
  return [name, i];
}

function closingBracket(expr: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < expr.length; i++) {
    const c = expr[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  throw new Error(`jsonpath: unclosed [ in ${expr}`);
}

function printed(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
