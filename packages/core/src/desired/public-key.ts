import { parseAuthorizedKey, type AuthorizedKey } from './authorized-key.js';
import { silentHostLogger } from '../host/host-logger.js';
import { loadPrivateKey } from '../host/ssh/private-key.js';

/** The public half of the operator's private key, as an authorized key (`<type> <base64>`). */
export function publicKeyOf(privateKeyPem: string): AuthorizedKey {
  const { key } = loadPrivateKey(privateKeyPem, silentHostLogger);
  return parseAuthorizedKey(`${key.type} ${key.getPublicSSH().toString('base64')}`);
}
