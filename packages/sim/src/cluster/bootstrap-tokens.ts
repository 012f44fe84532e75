import { randomBytes } from 'node:crypto';
import type { TokenLookup } from '../apiserver/authn.js';
import { isObject, type JsonObject } from '../apiserver/json.js';
import type { ObjectWriter } from '../apiserver/object-writer.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

function randomString(n: number): string {
  return [...randomBytes(n)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** A fresh bootstrap token `<6 chars>.<16 chars>`, as kubeadm makes them. */
export function newBootstrapToken(): { id: string; secret: string; token: string } {
  const id = randomString(6);
  const secret = randomString(16);
  return { id, secret, token: `${id}.${secret}` };
}

function decoded(data: JsonObject, key: string): string | undefined {
  const v = data[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : undefined;
}

/** The kube-system Secret that makes a bootstrap token valid. */
export function bootstrapTokenSecret(
  id: string,
  secret: string,
  extraGroups: readonly string[] = [],
): JsonObject {
  const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
    type: 'bootstrap.kubernetes.io/token',
    data: {
      'token-id': b64(id),
      'token-secret': b64(secret),
      'usage-bootstrap-authentication': b64('true'),
      'usage-bootstrap-signing': b64('true'),
      ...(extraGroups.length > 0 ? { 'auth-extra-groups': b64(extraGroups.join(',')) } : {}),
    },
  };
}

/** The decoded data of a usable bootstrap-token Secret for `id`, else undefined. */
function tokenData(writer: ObjectWriter, id: string): JsonObject | undefined {
  const s = writer.store.get(
    writer.registry.mustFind('', 'v1', 'secrets'),
    'kube-system',
    `bootstrap-token-${id}`,
  );
  if (s?.['type'] !== 'bootstrap.kubernetes.io/token' || !isObject(s['data'])) return undefined;
  const data = s['data'];
  if (decoded(data, 'usage-bootstrap-authentication') !== 'true') return undefined;
  const exp = decoded(data, 'expiration');
  return exp !== undefined && Date.parse(exp) < Date.now() ? undefined : data;
}

/**
 * The bootstrap-token authenticator: `<id>.<secret>` is valid while Secret kube-system/bootstrap-token-<id>
 * of type bootstrap.kubernetes.io/token holds that secret, allows authentication and has not expired.
 * The user is `system:bootstrap:<id>` in `system:bootstrappers` plus the secret's auth-extra-groups.
 */
export function bootstrapTokenLookup(writer: ObjectWriter): TokenLookup {
  return (token) => {
    const m = /^([a-z0-9]{6})\.([a-z0-9]{16})$/.exec(token);
    const id = m?.[1] ?? '';
    const data = m ? tokenData(writer, id) : undefined;
    if (!data || decoded(data, 'token-secret') !== m?.[2]) return undefined;
    const extra = (decoded(data, 'auth-extra-groups') ?? '')
      .split(',')
      .filter((g) => g.startsWith('system:bootstrappers:'));
    return { name: `system:bootstrap:${id}`, groups: ['system:bootstrappers', ...extra] };
  };
}
