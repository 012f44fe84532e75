/**
 * Which `windows-instances` key owns each host, by IPv4 address: two keys that reach one host (an IP and a
 * DNS name for it, or two names) are one host, and only the owner is worked on. The owner is the key the
 * host's Node was joined as, else the key that claimed the address first in this process. Claims of keys
 * that left the ConfigMap, or now resolve elsewhere, are released.
 *
 * A claim costs the same whatever the number of hosts: claims of keys that left are dropped once per new
 * set of live keys (callers keep one set per version of the ConfigMap), not at every claim, which made
 * admitting every entry of a 1,000-host list quadratic.
 */
export class AddressClaims {
  private readonly byIpv4 = new Map<string, string>();
  /** The address each key holds (at most one). */
  private readonly byKey = new Map<string, string>();
  private pruned: ReadonlySet<string> | undefined;

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
    if (held !== undefined && held !== key) this.byKey.delete(held);
    this.byIpv4.set(ipv4, key);
    this.byKey.set(key, ipv4);
    return undefined;
  }

  /** The key that owns `ipv4`, if any. */
  owner(ipv4: string): string | undefined {
    return this.byIpv4.get(ipv4);
  }

  private release(key: string, ipv4: string, live: ReadonlySet<string>): void {
    if (this.pruned !== live) {
      this.pruned = live;
      for (const [k, ip] of this.byKey) if (!live.has(k)) this.drop(k, ip);
    }
    const held = this.byKey.get(key);
    if (held !== undefined && (held !== ipv4 || !live.has(key))) this.drop(key, held);
  }

  private drop(key: string, ipv4: string): void {
    this.byKey.delete(key);
    if (this.byIpv4.get(ipv4) === key) this.byIpv4.delete(ipv4);
  }
}
