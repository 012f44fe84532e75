import { publicKeyOf } from '../desired/public-key.js';

/**
 * Why `pem` cannot be the operator's SSH private key (a public key, one protected by a passphrase,
 * something else), or undefined when it can. The operator derives the public key it authorises on hosts
 * from it, so that is the check.
 */
export function privateKeyProblem(pem: string): string | undefined {
  try {
    publicKeyOf(pem);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
