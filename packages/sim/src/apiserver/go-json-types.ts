import { goTypeName } from './builtin-models.js';
import type { Json } from './json.js';

/** How client-node spells maps and lists, and how Go names types and JSON values in its errors. */
export const MAP_TYPE = /^\{ \[key: string\]: (.*); \}$/;
export const ARRAY_TYPE = /^Array<(.*)>$/;

/** The JSON value kind as Go's UnmarshalTypeError names it. */
export function jsonKind(v: Json): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** The Go spelling of a client-node type (`map[string]string`, `[]v1.Taint`, `int32`). */
export function goType(type: string, format: string): string {
  const map = MAP_TYPE.exec(type);
  if (map) return `map[string]${goType(map[1] ?? '', format)}`;
  const arr = ARRAY_TYPE.exec(type);
  if (arr) return `[]${goType(arr[1] ?? '', format)}`;
  const scalars: Record<string, string> = {
    string: format === 'byte' ? '[]uint8' : 'string',
    number: format === 'int32' || format === 'int64' ? format : 'float64',
    boolean: 'bool',
    any: 'interface {}',
  };
  return scalars[type] ?? goTypeName(type);
}
