/**
 * A map of at most `max` entries, each kept until its own expiry: a read of an expired entry misses, and a
 * write beyond `max` drops the least recently used entry. Time comes from `now` (milliseconds).
 */
export class TtlLru<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly expires: number }>();

  constructor(
    private readonly max: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    this.entries.delete(key);
    if (e.expires <= this.now()) return undefined;
    // Map iteration is insertion order: re-inserting makes the entry the most recently used.
    this.entries.set(key, e);
    return e.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + ttlMs });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
