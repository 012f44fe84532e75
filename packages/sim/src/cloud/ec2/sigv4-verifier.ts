import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** Why a request's signature was refused, in the words EC2 uses. */
export interface SigV4Refusal {
  readonly code: 'AuthFailure' | 'IncompleteSignature' | 'MissingAuthenticationToken' | 'RequestExpired';
  readonly message: string;
}

export interface SignedRequest {
  readonly method: string;
  /** Path and query as received (`/?Action=...` or `/`). */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;
const MAX_SKEW_MS = 15 * 60_000;

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 requires (unreserved characters kept, everything else %XX upper-case). */
function uriEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function canonicalQuery(query: string): string {
  if (query === '') return '';
  return query
    .split('&')
    .map((pair) => {
      const [k = '', v = ''] = pair.split('=', 2);
      const dec = (s: string): string => decodeURIComponent(s.replace(/\+/g, ' '));
      return [uriEncode(dec(k)), uriEncode(dec(v))] as const;
    })
    .sort(([ak, av], [bk, bv]) => (ak === bk ? (av < bv ? -1 : 1) : ak < bk ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

function headerValue(headers: IncomingHttpHeaders, name: string): string {
  const v = headers[name];
  const joined = Array.isArray(v) ? v.join(',') : (v ?? '');
  return joined.trim().replace(/\s+/g, ' ');
}

/** Parses `x-amz-date` (`20240102T030405Z`) into epoch milliseconds. */
function amzDateMs(amzDate: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  return Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0);
}

interface ParsedAuth {
  readonly accessKeyId: string;
  readonly date: string;
  readonly region: string;
  readonly service: string;
  readonly signedHeaders: string;
  readonly signature: string;
}

const FAILED: SigV4Refusal = {
  code: 'AuthFailure',
  message: 'AWS was not able to validate the provided access credentials',
};

function parseAuth(headers: IncomingHttpHeaders): ParsedAuth | SigV4Refusal {
  const auth = headerValue(headers, 'authorization');
  if (auth === '')
    return { code: 'MissingAuthenticationToken', message: 'Request is missing Authentication Token' };
  const m = AUTH.exec(auth);
  if (!m)
    return {
      code: 'IncompleteSignature',
      message: 'Authorization header requires Credential, SignedHeaders and Signature',
    };
  const [, accessKeyId = '', date = '', region = '', service = '', signedHeaders = '', signature = ''] = m;
  return { accessKeyId, date, region, service, signedHeaders, signature };
}

function expectedSignature(req: SignedRequest, a: ParsedAuth, secret: string): Buffer {
  const [path = '/', query = ''] = req.url.split('?', 2);
  const canonical = [
    req.method,
    path
      .split('/')
      .map((seg) => uriEncode(decodeURIComponent(seg)))
      .join('/'),
    canonicalQuery(query),
    a.signedHeaders
      .split(';')
      .map((n) => `${n}:${headerValue(req.headers, n)}\n`)
      .join(''),
    a.signedHeaders,
    headerValue(req.headers, 'x-amz-content-sha256') || sha256(req.body),
  ].join('\n');
  const scope = `${a.date}/${a.region}/${a.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', headerValue(req.headers, 'x-amz-date'), scope, sha256(canonical)].join(
    '\n',
  );
  let key = hmac(`AWS4${secret}`, a.date);
  for (const part of [a.region, a.service, 'aws4_request']) key = hmac(key, part);
  return hmac(key, toSign);
}

/**
 * Verifies an AWS Signature Version 4 `Authorization` header against the secret of the access key it
 * names, for one service. Returns undefined when the signature is valid.
 */
export function verifySigV4(
  req: SignedRequest,
  service: string,
  secretFor: (accessKeyId: string) => string | undefined,
  now = Date.now(),
): SigV4Refusal | undefined {
  const a = parseAuth(req.headers);
  if ('code' in a) return a;
  const secret = secretFor(a.accessKeyId);
  if (secret === undefined || a.service !== service) return FAILED;
  const amzDate = headerValue(req.headers, 'x-amz-date');
  if (Math.abs(now - amzDateMs(amzDate)) > MAX_SKEW_MS || !amzDate.startsWith(a.date))
    return { code: 'RequestExpired', message: `Request has expired. Timestamp date is ${amzDate}` };
  const expected = expectedSignature(req, a, secret);
  return timingSafeEqual(expected, Buffer.from(a.signature, 'hex')) ? undefined : FAILED;
}
