import type { V1Node } from '@kubernetes/client-node';
import type { PinnedHostKey } from '../host/host-key-store.js';
import type { HostState } from '../host/protocol/index.js';
import { decryptUpstreamUsername } from '../identity/upstream-username.js';

/** The reason of the Normal event on a Node adopted from the Go WMCO. */
export const NODE_TAKEN_OVER = 'NodeTakenOver';
/** The reason of the Warning event on a Node that looks joined by another operator but does not check out. */
export const NODE_TAKEOVER_REFUSED = 'NodeTakeoverRefused';

export type TakeoverOutcome =
  /** Nothing to take over: the normal join decides. */
  | { readonly kind: 'none' }
  /** A candidate did not check out: reported, not adopted, not joined. */
  | { readonly kind: 'refused'; readonly why: string }
  /** Adopted: the Node as annotated; its version says whether the normal upgrade must follow. */
  | { readonly kind: 'adopted'; readonly node: V1Node; readonly matches: boolean };

/** What a takeover saw at its first contact with the host, and what the Node says. */
export interface TakeoverEvidence {
  readonly state: HostState;
  /** The key pinned at this first contact. */
  readonly pin: PinnedHostKey | undefined;
  /** The Node's `ssh-host-key` annotation (compared, never trusted). */
  readonly recordedKey: string | undefined;
  /** The Node's `username` annotation (the Go WMCO's OpenPGP message); undefined: none. */
  readonly username?: string;
  /** Whether a missing `username` annotation refuses (BYOH: yes; Machines: upstream writes none). */
  readonly usernameRequired?: boolean;
  readonly expectedUser: string;
  readonly privateKeyPem: string;
  /** Where the host was reached, for the message ("the entry’s address", "the Machine’s address"). */
  readonly at: string;
  /** Whose user is expected, for the message ("entry 10.0.0.5", "the Machine user"). */
  readonly userOf: string;
}

/**
 * Why a Node joined by another operator is not taken over, or undefined: the host runs no kubelet, no key
 * was pinned, the Node's `ssh-host-key` is not the pinned key, or its `username` does not decrypt (OpenPGP,
 * the operator's private key) to the expected user.
 */
export async function takeoverProblem(e: TakeoverEvidence): Promise<string | undefined> {
  if (!e.state.services.some((s) => s.name.toLowerCase() === 'kubelet' && s.state === 'running'))
    return `the host at ${e.at} runs no kubelet`;
  if (e.pin === undefined) return 'no host key was pinned at the first contact';
  if (e.recordedKey !== undefined && e.recordedKey !== e.pin.base64)
    return `the host’s SSH key (${e.pin.type}) is not the one recorded on the Node`;
  if (e.username === undefined)
    return e.usernameRequired === true ? 'the Node has no username annotation' : undefined;
  let username: string;
  try {
    username = await decryptUpstreamUsername(e.username, e.privateKeyPem);
  } catch {
    return 'its username annotation does not decrypt (OpenPGP) with the operator’s private key';
  }
  return username === e.expectedUser
    ? undefined
    : `its username annotation names another user than ${e.userOf}`;
}
