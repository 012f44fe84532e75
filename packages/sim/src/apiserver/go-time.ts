/**
 * How kube-apiserver decodes and re-encodes the two time types of apimachinery
 * (pkg/apis/meta/v1/time.go, micro_time.go):
 *
 * - `metav1.Time` parses with Go's `time.RFC3339` layout, which also accepts any number of fractional
 *   digits, and encodes `UTC().Format(RFC3339)`: UTC, whole seconds (fractions truncated).
 * - `metav1.MicroTime` parses with `RFC3339Micro` ("2006-01-02T15:04:05.000000Z07:00"), which requires
 *   exactly six fractional digits, and encodes UTC with six digits.
 *
 * A value that does not parse fails the decoding of the whole object with Go's `time.ParseError` text.
 */

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

export type TimeKind = 'time' | 'micro';

/** Go's `time.ParseError` message for a value that does not match its layout. */
export class TimeParseError extends Error {
  constructor(value: string, layout: string, valueElem: string, layoutElem: string) {
    super(
      `parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(valueElem)} as ${JSON.stringify(layoutElem)}`,
    );
    this.name = 'TimeParseError';
  }
}

interface Parts {
  readonly date: string;
  readonly fraction: string;
  readonly zone: string;
}

const HEAD = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/;
const ZONE = /^(Z|[+-]\d{2}:\d{2})$/;

/** Splits a value into date-time, fraction (with its dot) and zone, or names the element that failed. */
function split(value: string, layout: string): Parts {
  const head = HEAD.exec(value);
  if (!head) throw new TimeParseError(value, layout, value, layout);
  const rest = value.slice(head[0].length);
  const frac = /^[.,]\d+/.exec(rest)?.[0] ?? '';
  return { date: head[0], fraction: frac, zone: rest.slice(frac.length) };
}

type DateTimeFields = [number, number, number, number, number, number];

/** The element Go's time.Parse names when a field is out of range (month, day, hour, ...). */
function checkRanges(value: string, date: string): void {
  const [y, mo, d, h, mi, s] = date.split(/[-T:]/).map(Number) as DateTimeFields;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  const checks: [string, boolean][] = [
    ['month', mo < 1 || mo > 12],
    ['day', d < 1 || d > days],
    ['hour', h > 23],
    ['minute', mi > 59],
    ['second', s > 59],
  ];
  const bad = checks.find(([, isBad]) => isBad)?.[0];
  if (bad !== undefined) throw new Error(`parsing time ${JSON.stringify(value)}: ${bad} out of range`);
}

/** Milliseconds since the epoch and the microseconds below them, from a parsed value. */
function instant(p: Parts): { ms: number; micros: number } {
  const digits = p.fraction.slice(1).padEnd(9, '0');
  const ms = Date.parse(`${p.date}.${digits.slice(0, 3)}${p.zone}`);
  return { ms, micros: Number(digits.slice(3, 6)) };
}

/** The UTC `YYYY-MM-DDTHH:MM:SS` of an instant. */
function utcSeconds(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** Parses as `metav1.Time` does and returns what the server echoes (UTC, whole seconds). */
export function normalizeTime(value: string): string {
  const p = split(value, RFC3339);
  if (!ZONE.test(p.zone)) throw new TimeParseError(value, RFC3339, p.zone, 'Z07:00');
  checkRanges(value, p.date);
  return `${utcSeconds(instant(p).ms)}Z`;
}

/** Parses as `metav1.MicroTime` does (exactly six fractional digits) and returns the UTC form. */
export function normalizeMicroTime(value: string): string {
  const p = split(value, RFC3339_MICRO);
  const rest = value.slice(p.date.length);
  if (!/^[.,]\d{6}/.test(rest)) throw new TimeParseError(value, RFC3339_MICRO, rest, '.000000');
  const zone = rest.slice(7);
  if (!ZONE.test(zone)) throw new TimeParseError(value, RFC3339_MICRO, zone, 'Z07:00');
  checkRanges(value, p.date);
  const t = instant({ date: p.date, fraction: rest.slice(0, 7), zone });
  const ms = String(((t.ms % 1000) + 1000) % 1000).padStart(3, '0');
  return `${utcSeconds(t.ms)}.${ms}${String(t.micros).padStart(3, '0')}Z`;
}

export function normalizeTimeOf(kind: TimeKind, value: string): string {
  return kind === 'micro' ? normalizeMicroTime(value) : normalizeTime(value);
}

/** A `Date` as `metav1.MicroTime` encodes it (for the server's own writes). */
export function microTimeOf(d: Date): string {
  return d.toISOString().replace(/Z$/, '000Z');
}
