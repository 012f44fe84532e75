import type { PsToken } from './powershell-tokens.js';
import { PowerShellError } from './script-errors.js';

/** One declared parameter of a script or cmdlet the simulator models. */
export interface ParamSpec {
  readonly name: string;
  readonly type: 'string' | 'int' | 'switch';
  readonly mandatory?: boolean;
}

export type BoundArgs = ReadonlyMap<string, string | number | boolean>;

function convert(spec: ParamSpec, value: string): string | number {
  if (spec.type !== 'int') return value;
  if (!/^\s*[+-]?\d+\s*$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new PowerShellError(
      `Cannot process argument transformation on parameter '${spec.name}'. Cannot convert value "${value}" ` +
        'to type "System.Int32". Error: "Input string was not in a correct format."',
    );
  }
  return Number(value);
}

/** PowerShell accepts any unambiguous prefix of a parameter name, case-insensitively. */
function find(specs: readonly ParamSpec[], name: string): ParamSpec {
  const lower = name.toLowerCase();
  const exact = specs.find((s) => s.name.toLowerCase() === lower);
  if (exact) return exact;
  const matches = specs.filter((s) => s.name.toLowerCase().startsWith(lower));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new PowerShellError(`A parameter cannot be found that matches parameter name '${name}'.`);
  throw new PowerShellError(
    `Parameter cannot be processed because the parameter name '${name}' is ambiguous. Possible matches include: ` +
      `${matches.map((m) => `-${m.name}`).join(' ')}.`,
  );
}

/** The value of a named parameter: attached (`-name:value`) or the next word; returns tokens used. */
function namedValue(
  spec: ParamSpec,
  token: { attached?: string },
  next: PsToken | undefined,
): [string, number] {
  if (token.attached !== undefined) return [token.attached, 0];
  if (next?.kind !== 'word') {
    const type = spec.type === 'int' ? 'System.Int32' : 'System.String';
    throw new PowerShellError(
      `Missing an argument for parameter '${spec.name}'. Specify a parameter of type '${type}' and try again.`,
    );
  }
  return [next.text, 1];
}

function bindPositional(
  specs: readonly ParamSpec[],
  bound: Map<string, unknown>,
  values: readonly string[],
): void {
  for (const value of values) {
    const spec = specs.find((s) => s.type !== 'switch' && !bound.has(s.name));
    if (!spec)
      throw new PowerShellError(`A positional parameter cannot be found that accepts argument '${value}'.`);
    bound.set(spec.name, convert(spec, value));
  }
}

/**
 * Binds the arguments of one command (the tokens after its name) the way PowerShell does for a script with
 * a `param()` block: named (`-name value`, `-name:value`, unambiguous prefixes), then positional in
 * declaration order; a missing mandatory parameter fails, as it does under `-NonInteractive`.
 * Expandable words must have been refused before.
 */
export function bindParameters(specs: readonly ParamSpec[], args: readonly PsToken[]): BoundArgs {
  const bound = new Map<string, string | number | boolean>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    if (token.kind === 'operator') throw new PowerShellError(`Unexpected token '${token.text}'.`);
    if (token.kind === 'word') {
      positional.push(token.text);
      continue;
    }
    const spec = find(specs, token.name);
    if (bound.has(spec.name))
      throw new PowerShellError(
        `Cannot bind parameter because parameter '${spec.name}' is specified more than once.`,
      );
    if (spec.type === 'switch') {
      bound.set(spec.name, token.attached === undefined || !/^\$?false$/i.test(token.attached));
      continue;
    }
    const [value, used] = namedValue(spec, token, args[i + 1]);
    i += used;
    bound.set(spec.name, convert(spec, value));
  }
  bindPositional(specs, bound, positional);
  const missing = specs.filter((s) => s.mandatory && !bound.has(s.name)).map((s) => s.name);
  if (missing.length > 0) {
    throw new PowerShellError(
      `Cannot process command because of one or more missing mandatory parameters: ${missing.join(' ')}.`,
    );
  }
  return bound;
}
