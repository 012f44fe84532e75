import { ApiError } from './status.js';

/** One requirement of a label selector (`k=v`, `k!=v`, `k in (a,b)`, `k notin (a)`, `k`, `!k`). */
export interface LabelRequirement {
  readonly key: string;
  readonly op: 'in' | 'notin' | 'exists' | 'notexists';
  readonly values: readonly string[];
}

/** Splits on commas that are not inside parentheses. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

const SET_RE = /^([^\s!=()]+)\s+(in|notin)\s+\(([^)]*)\)$/;
const EQ_RE = /^([^\s!=()]+)\s*(==|=|!=)\s*([^\s!=()]*)$/;
const KEY_RE = /^(!?)\s*([^\s!=()]+)$/;

function parseSet(term: string): LabelRequirement | undefined {
  const set = SET_RE.exec(term);
  if (!set) return undefined;
  const values = (set[3] ?? '').split(',').map((v) => v.trim());
  return { key: set[1] ?? '', op: set[2] === 'in' ? 'in' : 'notin', values };
}

function parseEquality(term: string): LabelRequirement | undefined {
  const eq = EQ_RE.exec(term);
  return eq ? { key: eq[1] ?? '', op: eq[2] === '!=' ? 'notin' : 'in', values: [eq[3] ?? ''] } : undefined;
}

function parseExists(term: string): LabelRequirement | undefined {
  const key = KEY_RE.exec(term);
  return key ? { key: key[2] ?? '', op: key[1] === '!' ? 'notexists' : 'exists', values: [] } : undefined;
}

function parseOne(term: string): LabelRequirement {
  const r = parseSet(term) ?? parseEquality(term) ?? parseExists(term);
  if (!r)
    throw new ApiError(
      400,
      'BadRequest',
      `unable to parse requirement: invalid label selector term "${term}"`,
    );
  return r;
}

export function parseLabelSelector(s: string | undefined): readonly LabelRequirement[] {
  return s === undefined ? [] : splitTopLevel(s).map(parseOne);
}

function matchesOne(r: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const v = labels[r.key];
  switch (r.op) {
    case 'exists':
      return has;
    case 'notexists':
      return !has;
    case 'in':
      return has && r.values.includes(v ?? '');
    case 'notin':
      return !has || !r.values.includes(v ?? '');
  }
}

export function matchesLabels(
  reqs: readonly LabelRequirement[],
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  return reqs.every((r) => matchesOne(r, labels ?? {}));
}

/** A field selector term: only `=`, `==` and `!=` exist for fields. */
export interface FieldRequirement {
  readonly field: string;
  readonly value: string;
  readonly negate: boolean;
}

export function parseFieldSelector(
  s: string | undefined,
  supported: readonly string[],
  kind: string,
): readonly FieldRequirement[] {
  if (s === undefined) return [];
  return splitTopLevel(s).map((term) => {
    const m = /^([^\s!=]+)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!m) throw new ApiError(400, 'BadRequest', `invalid field selector: "${term}"`);
    const field = m[1] ?? '';
    if (!supported.includes(field)) {
      throw new ApiError(
        400,
        'BadRequest',
        `field label not supported: ${field} (${kind} supports ${supported.join(', ')})`,
      );
    }
    return { field, value: m[3] ?? '', negate: m[2] === '!=' };
  });
}

/** Reads a dotted path (`spec.nodeName`) from an object as a string, '' when absent (as the apiserver does). */
export function fieldValue(obj: unknown, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (typeof cur === 'string') return cur;
  if (typeof cur === 'number' || typeof cur === 'boolean') return String(cur);
  return '';
}

/** Field labels that name something other than their own path (an Event's `source` is its component). */
const FIELD_PATHS: Readonly<Record<string, string>> = { source: 'source.component' };

export function matchesFields(reqs: readonly FieldRequirement[], obj: unknown): boolean {
  return reqs.every((r) => (fieldValue(obj, FIELD_PATHS[r.field] ?? r.field) === r.value) !== r.negate);
}
