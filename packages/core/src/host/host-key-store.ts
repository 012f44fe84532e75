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
export class InMemoryHostKeyStore implements HostKeyStore {
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
}
