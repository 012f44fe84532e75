import { stringify } from 'yaml';

/**
 * The Go template / sprig functions charts/wmco uses, except `include` (which needs the chart's named
 * templates: chart-template.ts handles it). Arguments come in Go order; a piped value is the last one.
 * Throws a plain Error with the reason; the renderer names the template.
 */

function pad(n: unknown): string {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    throw new Error(`indent width must be a non-negative integer, got ${String(n)}`);
  }
  return ' '.repeat(n);
}

function indent(width: unknown, text: unknown): string {
  return String(text)
    .split('\n')
    .map((line) => pad(width) + line)
    .join('\n');
}

/** Go's printf for the verbs the chart uses: `%s` and `%%`. */
function printf(format: unknown, ...args: unknown[]): string {
  let i = 0;
  return String(format).replace(/%([s%])/g, (_, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) throw new Error(`printf: too few arguments for "${String(format)}"`);
    return String(args[i++]);
  });
}

function trunc(n: unknown, s: unknown): string {
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new Error('trunc needs an integer length');
  const text = String(s);
  return n >= 0 ? text.slice(0, n) : text.slice(n);
}

function trimSuffix(suffix: unknown, s: unknown): string {
  const text = String(s);
  const end = String(suffix);
  return end !== '' && text.endsWith(end) ? text.slice(0, -end.length) : text;
}

function join(sep: unknown, list: unknown): string {
  if (!Array.isArray(list)) throw new Error('join needs a list');
  return list.map(String).join(String(sep));
}

type Fn = (...args: unknown[]) => unknown;

/** Each function and its argument count (`undefined`: any count from one). */
const FUNCTIONS: Readonly<Record<string, { readonly fn: Fn; readonly arity?: number }>> = {
  toYaml: { fn: (v) => stringify(v, { sortMapEntries: true }).replace(/\n$/, ''), arity: 1 },
  quote: { fn: (v) => JSON.stringify(String(v)), arity: 1 },
  join: { fn: join, arity: 2 },
  indent: { fn: indent, arity: 2 },
  nindent: { fn: (w, t) => `\n${indent(w, t)}`, arity: 2 },
  printf: { fn: printf },
  replace: { fn: (from, to, s) => String(s).split(String(from)).join(String(to)), arity: 3 },
  trunc: { fn: trunc, arity: 2 },
  trimSuffix: { fn: trimSuffix, arity: 2 },
};

export function isTemplateFunction(name: string): boolean {
  return Object.hasOwn(FUNCTIONS, name);
}

/** Calls a function; throws on an unknown name or a wrong argument count. */
export function callFunction(name: string, args: readonly unknown[]): unknown {
  const entry = FUNCTIONS[name];
  if (!entry) throw new Error(`unsupported function "${name}"`);
  const ok = entry.arity === undefined ? args.length >= 1 : args.length === entry.arity;
  if (!ok) throw new Error(`${name} takes ${entry.arity ?? 'one or more'} argument(s), got ${args.length}`);
  return entry.fn(...args);
}
