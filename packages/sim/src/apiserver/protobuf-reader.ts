import { ApiError } from './status.js';

/** One protobuf field: varint fields carry a number, length-delimited ones their bytes. */
export interface PbField {
  readonly num: number;
  readonly varint?: bigint;
  readonly bytes?: Buffer;
}

function bad(what: string): ApiError {
  return new ApiError(400, 'BadRequest', `malformed protobuf body: ${what}`);
}

function readVarint(buf: Buffer, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  let p = pos;
  for (;;) {
    if (p >= buf.length) throw bad('truncated varint');
    const b = buf[p] ?? 0;
    p += 1;
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [result, p];
    shift += 7n;
    if (shift > 63n) throw bad('varint too long');
  }
}

/** Splits a message into its fields (wire types 0, 1, 2 and 5; groups are rejected). */
export function readFields(buf: Buffer): PbField[] {
  const out: PbField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [tag, p1] = readVarint(buf, pos);
    const num = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    if (wire === 0) {
      const [v, p2] = readVarint(buf, p1);
      out.push({ num, varint: v });
      pos = p2;
    } else if (wire === 2) {
      const [len, p2] = readVarint(buf, p1);
      const end = p2 + Number(len);
      if (end > buf.length) throw bad('length past the end of the message');
      out.push({ num, bytes: buf.subarray(p2, end) });
      pos = end;
    } else if (wire === 1 || wire === 5) {
      pos = p1 + (wire === 1 ? 8 : 4);
    } else throw bad(`unsupported wire type ${wire}`);
  }
  return out;
}

/** Typed access to the fields of one message. */
export class PbMessage {
  private readonly fields: PbField[];

  constructor(buf: Buffer) {
    this.fields = readFields(buf);
  }

  str(num: number): string | undefined {
    const f = this.fields.find((x) => x.num === num && x.bytes !== undefined);
    return f?.bytes?.toString('utf8');
  }

  strs(num: number): string[] {
    return this.fields.filter((x) => x.num === num && x.bytes).map((x) => x.bytes?.toString('utf8') ?? '');
  }

  bytes(num: number): Buffer | undefined {
    return this.fields.find((x) => x.num === num && x.bytes !== undefined)?.bytes;
  }

  msg(num: number): PbMessage | undefined {
    const b = this.bytes(num);
    return b === undefined ? undefined : new PbMessage(b);
  }

  msgs(num: number): PbMessage[] {
    return this.fields
      .filter((x) => x.num === num && x.bytes)
      .map((x) => new PbMessage(x.bytes ?? Buffer.alloc(0)));
  }

  int(num: number): number | undefined {
    const f = this.fields.find((x) => x.num === num && x.varint !== undefined);
    return f?.varint === undefined ? undefined : Number(BigInt.asIntN(64, f.varint));
  }

  bool(num: number): boolean | undefined {
    const v = this.int(num);
    return v === undefined ? undefined : v !== 0;
  }

  /** A map<string,bytes> field, values base64 as in JSON (Secret data, ConfigMap binaryData). */
  bytesMap(num: number): Record<string, string> | undefined {
    const entries = this.msgs(num);
    if (entries.length === 0) return undefined;
    return Object.fromEntries(
      entries.map((e) => [e.str(1) ?? '', (e.bytes(2) ?? Buffer.alloc(0)).toString('base64')]),
    );
  }

  /** The numbers of the fields that carry something (a non-zero varint or non-empty bytes). */
  setFields(): number[] {
    return this.fields.filter((f) => (f.bytes ? f.bytes.length > 0 : f.varint !== 0n)).map((f) => f.num);
  }

  /** A map<string,string> field (repeated entries {1 key, 2 value}). */
  map(num: number): Record<string, string> | undefined {
    const entries = this.msgs(num);
    if (entries.length === 0) return undefined;
    return Object.fromEntries(entries.map((e) => [e.str(1) ?? '', e.str(2) ?? '']));
  }
}
