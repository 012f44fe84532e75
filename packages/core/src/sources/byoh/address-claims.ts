/**
 * Which `windows-instances` key owns each host, by IPv4 address: two keys that reach one host (an IP and a
 * DNS name for it, or two names) are one host, and only the owner is worked on. The owner is the key the
 * host's Node was joined as, else the key that claimed the address first in this process. Claims of keys
 * that left the ConfigMap, or now resolve elsewhere, are released.
 */
export class AddressClaims {
  private readonly byIpv4 = new Map<string, string>();

  /**
   * Claims `ipv4` for `key`. Returns the other key that owns it (this key must then be refused), or
   * undefined when `key` owns it. `live`: the keys in the ConfigMap now; `joinedAs`: the key recorded on
   * the Node that has this address, if any.
   */
  claim(key: string, ipv4: string, live: ReadonlySet<string>, joinedAs?: string): string | undefined {
    this.release(key, ipv4, live);
    if (joinedAs !== undefined && joinedAs !== key && live.has(joinedAs)) return joinedAs;
    const held = this.byIpv4.get(ipv4);
    if (held !== undefined && held !== key && live.has(held)) return held;
    this.byIpv4.set(ipv4, key);
    return undefined;
  }

  /** The key that owns `ipv4`, if any. */
  owner(ipv4: string): string | undefined {
    return this.byIpv4.get(ipv4);
  }

  private release(key: string, ipv4: string, live: ReadonlySet<string>): void {
    for (const [ip, k] of this.byIpv4) {
      if (!live.has(k) || (k === key && ip !== ipv4)) this.byIpv4.delete(ip);
    }
  }
}
