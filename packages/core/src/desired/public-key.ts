import ssh2 from 'ssh2';
import { parseAuthorizedKey, type AuthorizedKey } from './authorized-key.js';
import { silentHostLogger } from '../host/host-logger.js';
import { loadPrivateKey } from '../host/ssh/private-key.js';

/** The public half of the operator's private key, as an authorized key (`<type> <base64>`). */
export function publicKeyOf(privateKeyPem: string): AuthorizedKey {
  const loaded = loadPrivateKey(privateKeyPem, silentHostLogger);
  const parsed = ssh2.utils.parseKey(loaded.pem);
  const key = Array.isArray(parsed) ? (parsed[0] as ssh2.ParsedKey | undefined) : parsed;
  if (!key || key instanceof Error) throw new Error('cannot read the private key');
  return parseAuthorizedKey(`${key.type} ${key.getPublicSSH().toString('base64')}`);
}
