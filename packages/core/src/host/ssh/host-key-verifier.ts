import { createHash } from 'node:crypto';
import ssh2 from 'ssh2';

// ssh2 is CommonJS; Node cannot see its named exports from ESM.
const { utils } = ssh2;
import type { HostKeyStore, PinnedHostKey } from '../host-key-store.js';

/** `SHA256:<base64>`, the form `ssh-keygen -l` prints. */
export function hostKeyFingerprint(base64: string): string {
  const digest = createHash('sha256').update(Buffer.from(base64, 'base64')).digest('base64');
  return `SHA256:${digest.replace(/=+$/, '')}`;
}

/** What the verifier saw on the last attempt; a mismatch makes the connect fail with HostKeyMismatchError. */
export interface HostKeyCheck {
  mismatch?: { pinned: string; presented: string };
}

function keyType(key: Buffer): string {
  const parsed = utils.parseKey(key);
  if (parsed instanceof Error) return 'unknown';
  return Array.isArray(parsed) ? String((parsed[0] as { type: string }).type) : parsed.type;
}

/**
 * ssh2's `hostVerifier` (it auto-accepts when none is set): pins the first key seen for `address`, then
 * accepts only that key. A different key is refused and recorded in `check`.
 */
export function pinningHostVerifier(
  store: HostKeyStore,
  address: string,
  check: HostKeyCheck,
): (key: Buffer, verify: (valid: boolean) => void) => void {
  return (key, verify) => {
    const presented: PinnedHostKey = { type: keyType(key), base64: key.toString('base64') };
    store
      .get(address)
      .then(async (pinned) => {
        if (pinned === undefined) {
          await store.pin(address, presented);
          return true;
        }
        if (pinned.base64 === presented.base64) return true;
        check.mismatch = {
          pinned: hostKeyFingerprint(pinned.base64),
          presented: hostKeyFingerprint(presented.base64),
        };
        return false;
      })
      .then(verify, () => verify(false))
      // ssh2 throws from `verify` when the connection ended while the store answered (an attempt that
      // was abandoned or timed out: its protocol is torn down). Nothing is left to verify then, and the
      // throw must not become an unhandled rejection, which ends the process.
      .catch(() => undefined);
  };
}
