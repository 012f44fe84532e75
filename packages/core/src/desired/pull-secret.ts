/** `auths` of a `.dockerconfigjson` pull secret: registry host → `Basic` credentials (base64 `user:pass`). */
export type RegistryCredentials = ReadonlyMap<string, string>;

interface AuthEntry {
  auth?: unknown;
  username?: unknown;
  password?: unknown;
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
    const entry = raw ?? {};
    if (typeof entry.auth === 'string' && /^[A-Za-z0-9+/]+={0,2}$/.test(entry.auth)) {
      creds.set(registry, entry.auth);
    } else if (typeof entry.username === 'string' && typeof entry.password === 'string') {
      creds.set(registry, Buffer.from(`${entry.username}:${entry.password}`).toString('base64'));
    } else {
      throw new Error(`pull secret entry "${registry}" has neither a base64 "auth" nor "username"/"password"`);
    }
  }
  return creds;
}
