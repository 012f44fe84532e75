import type { HostKeyStore, PinnedHostKey } from './host-key-store.js';

/**
 * For a host listed by DNS name: its key is pinned under the name as well as under the address it
 * resolved to, and the name's pin is checked first. A name that starts resolving to another machine
 * (a different key) is therefore a host key mismatch, never a new first use of the new address. A host
 * already pinned only by address (before this rule) has its key copied to the name on the next connect.
 */
export class NamePinnedHostKeyStore implements HostKeyStore {
  constructor(
    private readonly inner: HostKeyStore,
    private readonly name: string,
  ) {}

  async get(address: string): Promise<PinnedHostKey | undefined> {
    const byName = await this.inner.get(this.alias(address));
    if (byName !== undefined) return byName;
    const byAddress = await this.inner.get(address);
    if (byAddress !== undefined) await this.inner.pin(this.alias(address), byAddress);
    return byAddress;
  }

  async pin(address: string, key: PinnedHostKey): Promise<void> {
    await this.inner.pin(this.alias(address), key);
    await this.inner.pin(address, key);
  }

  async forget(address: string): Promise<void> {
    await this.inner.forget(this.alias(address));
    await this.inner.forget(address);
  }

  /** The name, with the port when the address carries one (`ip:port` for hosts off port 22). */
  private alias(address: string): string {
    const colon = address.lastIndexOf(':');
    return colon < 0 ? this.name : `${this.name}${address.slice(colon)}`;
  }
}
