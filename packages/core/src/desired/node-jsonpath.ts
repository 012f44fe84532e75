/**
 * Evaluates the subset of Kubernetes JSONPath templates the services ConfigMap uses: literal text with
 * `{.field.field}` references into the Node object, where `\.` escapes a dot inside a key (for example
 * `{.metadata.annotations.k8s\.ovn\.org/hybrid-overlay-node-subnet}`). Text outside braces is literal,
 * so a template with no braces evaluates to itself (upstream relies on this, QUIRK 3). A reference that
 * is missing or not a string/number is an error.
 */
export function evaluateNodeJsonPath(template: string, node: unknown): string {
  let out = '';
  let rest = template;
  for (let open = rest.indexOf('{'); open >= 0; open = rest.indexOf('{')) {
    const close = rest.indexOf('}', open);
    if (close < 0) throw new Error(`JSONPath "${template}": unclosed "{"`);
    out += rest.slice(0, open) + lookup(rest.slice(open + 1, close), node, template);
    rest = rest.slice(close + 1);
  }
  return out + rest;
}

function splitPath(expr: string, template: string): string[] {
  if (!expr.startsWith('.') || expr.length < 2) {
    throw new Error(`JSONPath "${template}": only {.field.field} references are supported`);
  }
  const keys: string[] = [];
  let key = '';
  for (let i = 1; i < expr.length; i++) {
    const c = expr[i];
    if (c === '\\' && expr[i + 1] === '.') {
      key += '.';
      i++;
    } else if (c === '.') {
      keys.push(key);
      key = '';
    } else key += c;
  }
  keys.push(key);
  if (keys.some((k) => k === '')) throw new Error(`JSONPath "${template}": empty field name`);
  return keys;
}

function lookup(expr: string, node: unknown, template: string): string {
  let value: unknown = node;
  for (const key of splitPath(expr, template)) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) {
      throw new Error(`JSONPath "${template}": the Node has no value at {${expr}}`);
    }
    value = (value as Record<string, unknown>)[key];
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new Error(`JSONPath "${template}": {${expr}} is not a single string`);
}
