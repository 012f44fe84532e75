import { goStructName, goTypeName, modelFields, type FieldSpec } from './builtin-models.js';
import { DecodeError } from './decode-error.js';
import { ARRAY_TYPE, MAP_TYPE, goType, jsonKind } from './go-json-types.js';
import { normalizeTimeOf } from './go-time.js';
import { isObject, type Json, type JsonObject } from './json.js';
import { isQuantityField, normalizeQuantity } from './quantity.js';

/**
 * Decodes a built-in object the way kube-apiserver's JSON serializer decodes it into its Go type: wrong
 * JSON types fail with Go's `json: cannot unmarshal ...` text, `Time`/`MicroTime`/quantities parse or fail,
 * unknown fields are dropped and reported, and the result is what the server would encode back: maps with
 * sorted keys (Go sorts map keys; struct fields keep their order), times normalized.
 */
export interface Decoded {
  readonly object: JsonObject;
  /** Dotted paths (`spec.foo`, `spec.items[0].bar`) of the fields the Go type does not have. */
  readonly unknown: readonly string[];
}

interface State {
  readonly unknown: string[];
  /** Go saves the first type mismatch and keeps decoding; an Unmarshaler's error stops at once. */
  typeError?: string;
}

/** Where the decoder is: the path for unknown fields, and Go's error context (innermost struct, fields). */
interface Cursor {
  readonly state: State;
  readonly path: string;
  readonly struct: string;
  readonly fields: readonly string[];
}

function mismatch(c: Cursor, value: string, type: string): undefined {
  const where =
    c.fields.length === 0
      ? `Go value of type ${type}`
      : `Go struct field ${c.struct}.${c.fields.join('.')} of type ${type}`;
  c.state.typeError ??= `json: cannot unmarshal ${value} into ${where}`;
  return undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const JS_TYPE: Readonly<Record<string, string>> = { string: 'string', number: 'number', boolean: 'boolean' };

function checkBase64(v: string): void {
  if (v.length % 4 === 0 && BASE64.test(v)) return;
  const at = v.search(/[^A-Za-z0-9+/=]/);
  throw new DecodeError(`illegal base64 data at input byte ${at >= 0 ? at : v.length}`);
}

function decodeScalar(v: Json, f: FieldSpec, c: Cursor): Json | undefined {
  if (typeof v !== JS_TYPE[f.type]) return mismatch(c, jsonKind(v), goType(f.type, f.format));
  if (typeof v === 'number' && f.format.startsWith('int') && !Number.isInteger(v)) {
    return mismatch(c, `number ${v}`, f.format);
  }
  if (typeof v === 'string' && f.format === 'byte') checkBase64(v);
  return v;
}

/** metav1.Time / MicroTime UnmarshalJSON: a JSON string, then time.Parse; errors stop decoding. */
function decodeTime(v: Json, micro: boolean): Json {
  if (typeof v !== 'string')
    throw new DecodeError(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
  try {
    return normalizeTimeOf(micro ? 'micro' : 'time', v);
  } catch (e) {
    throw new DecodeError((e as Error).message);
  }
}

/** intstr.IntOrString.UnmarshalJSON: a quoted value is a string, anything else must be an int32. */
function decodeIntOrString(v: Json): Json {
  if (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v))) return v;
  const what = typeof v === 'number' ? `number ${v}` : jsonKind(v);
  throw new DecodeError(`json: cannot unmarshal ${what} into Go value of type int32`);
}

function decodeMap(v: Json, elem: string, f: FieldSpec, c: Cursor): Json | undefined {
  if (!isObject(v)) return mismatch(c, jsonKind(v), goType(f.type, f.format));
  const out: JsonObject = {};
  for (const k of Object.keys(v).sort()) {
    const x = v[k] ?? null;
    // Map keys are not part of Go's error context, only of the unknown-field path.
    const d =
      x === null && elem === 'string'
        ? ''
        : decodeValue(x, { ...f, type: elem }, { ...c, path: `${c.path}.${k}` });
    if (d !== undefined) out[k] = d;
  }
  return out;
}

function decodeArray(v: Json, elem: string, f: FieldSpec, c: Cursor): Json | undefined {
  if (!Array.isArray(v)) return mismatch(c, jsonKind(v), goType(f.type, f.format));
  const sub = { ...f, type: elem };
  return v.map((x, i) => decodeValue(x, sub, { ...c, path: `${c.path}[${i}]` }) ?? null);
}

function fieldCursor(c: Cursor, key: string, struct: string): Cursor {
  return {
    state: c.state,
    path: c.path === '' ? key : `${c.path}.${key}`,
    struct,
    fields: [...c.fields, key],
  };
}

/** A model's object: known fields decoded in the order sent, unknown ones recorded and dropped. */
function decodeStruct(v: Json, model: string, c: Cursor): Json | undefined {
  const fields = modelFields(model);
  if (!fields) return v;
  if (!isObject(v)) return mismatch(c, jsonKind(v), goTypeName(model));
  const out: JsonObject = {};
  const struct = goStructName(model);
  for (const [k, x] of Object.entries(v)) {
    const f = fields.get(k);
    const sub = fieldCursor(c, k, struct);
    if (f === undefined) c.state.unknown.push(sub.path);
    // null leaves Go's zero value, which `omitempty` (or a nil pointer) leaves out.
    if (f === undefined || x === null) continue;
    const d = isQuantityField(model, k)
      ? normalizeQuantity(x, MAP_TYPE.test(f.type))
      : decodeValue(x, f, sub);
    if (d !== undefined) out[k] = d;
  }
  return out;
}

type Decoder = (v: Json, f: FieldSpec, c: Cursor) => Json | undefined;

const BY_TYPE: Readonly<Record<string, Decoder>> = {
  any: (v) => v,
  Date: (v) => decodeTime(v, false),
  V1MicroTime: (v) => decodeTime(v, true),
  IntOrString: (v) => decodeIntOrString(v),
  string: decodeScalar,
  number: decodeScalar,
  boolean: decodeScalar,
};

function decodeValue(v: Json, f: FieldSpec, c: Cursor): Json | undefined {
  if (v === null) return null;
  const map = MAP_TYPE.exec(f.type);
  if (map) return decodeMap(v, map[1] ?? '', f, c);
  const arr = ARRAY_TYPE.exec(f.type);
  if (arr) return decodeArray(v, arr[1] ?? '', f, c);
  const byType = BY_TYPE[f.type];
  return byType ? byType(v, f, c) : decodeStruct(v, f.type, c);
}

/** Decodes `obj` as the model's Go type; throws DecodeError with the message Go's decoder gives. */
export function decodeTyped(model: string, obj: JsonObject): Decoded {
  const state: State = { unknown: [] };
  const out = decodeStruct(obj, model, { state, path: '', struct: goStructName(model), fields: [] });
  if (state.typeError !== undefined) throw new DecodeError(state.typeError);
  return { object: isObject(out) ? out : {}, unknown: state.unknown };
}
