import { pinsOf, type HostPinRemover } from './host-pins.js';

/** A pinned SSH host key: its algorithm and the base64 of its wire format (upstream's annotation form). */
export interface PinnedHostKey {
  readonly type: string;
  readonly base64: string;
}

/**
 * Where host keys are pinned on first use, keyed by host address. The operator's implementation keeps
 * them on the Node (or a ConfigMap before the Node exists); tests use `InMemoryHostKeyStore`.
 */
export interface HostKeyStore {
  get(address: string): Promise<PinnedHostKey | undefined>;
  pin(address: string, key: PinnedHostKey): Promise<void>;
  /** Forget a host's key, e.g. when its address is reused by a new machine. */
  forget(address: string): Promise<void>;
}

/** Keeps pins in a Map; for tests and one-shot CLI commands. */
export class InMemoryHostKeyStore implements HostKeyStore, HostPinRemover {
  private readonly keys = new Map<string, PinnedHostKey>();

  get(address: string): Promise<PinnedHostKey | undefined> {
    return Promise.resolve(this.keys.get(address));
  }

  pin(address: string, key: PinnedHostKey): Promise<void> {
    this.keys.set(address, key);
    return Promise.resolve();
  }

  forget(address: string): Promise<void> {
    this.keys.delete(address);
    return Promise.resolve();
  }

  forgetHosts(hosts: readonly string[]): Promise<readonly string[]> {
    const gone = pinsOf(this.keys.keys(), hosts);
    for (const k of gone) this.keys.delete(k);
    return Promise.resolve(gone);
  }
}

/** A pin was asked of a store that must not change (e.g. `wmco plan`, which only looks). */
export class HostKeyNotPinnedError extends Error {
  constructor(readonly address: string) {
    super(`no SSH host key is pinned for ${address}, and this command does not pin new keys`);
    this.name = 'HostKeyNotPinnedError';
  }
}

/**
 * Reads pins from another store and never writes: an unknown host is refused instead of trusted on first
 * use, and a changed key still fails as a mismatch. For commands that only look at hosts.
 */
export class ReadOnlyHostKeyStore implements HostKeyStore {
  constructor(private readonly inner: HostKeyStore) {}

  get(address: string): Promise<PinnedHostKey | undefined> {
    return this.inner.get(address);
  }

  pin(address: string): Promise<void> {
    return Promise.reject(new HostKeyNotPinnedError(address));
  }

  forget(address: string): Promise<void> {
    return Promise.reject(new Error(`refusing to forget the host key of ${address}: the store is read-only`));
  }
}
