/** `auths` of a `.dockerconfigjson` pull secret: registry host → `Basic` credentials (base64 `user:pass`). */
export type RegistryCredentials = ReadonlyMap<string, string>;

interface AuthEntry {
  auth?: unknown;
  username?: unknown;
  password?: unknown;
}

function basicCredentials(registry: string, entry: AuthEntry): string {
  if (typeof entry.auth === 'string' && /^[A-Za-z0-9+/]+={0,2}$/.test(entry.auth)) return entry.auth;
  if (typeof entry.username === 'string' && typeof entry.password === 'string') {
    return Buffer.from(`${entry.username}:${entry.password}`).toString('base64');
  }
  throw new Error(`pull secret entry "${registry}" has neither a base64 "auth" nor "username"/"password"`);
}

/**
 * Parses a `.dockerconfigjson` document into credentials per registry key (exact keys, as upstream
 * matches them). An entry may carry `auth` (base64 `user:pass`) or `username` + `password`. Malformed
 * JSON or an entry with neither is an error naming the registry.
 */
export function parsePullSecret(dockerConfigJson: string): RegistryCredentials {
  let doc: unknown;
  try {
    doc = JSON.parse(dockerConfigJson);
  } catch (err) {
    throw new Error(`pull secret is not JSON: ${(err as Error).message}`, { cause: err });
  }
  const auths = (doc as { auths?: unknown } | null)?.auths;
  if (typeof auths !== 'object' || auths === null) throw new Error('pull secret has no "auths" object');
  const creds = new Map<string, string>();
  for (const [registry, raw] of Object.entries(auths as Record<string, AuthEntry>)) {
    creds.set(registry, basicCredentials(registry, raw ?? {}));
  }
  return creds;
}
