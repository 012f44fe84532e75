/** Minimal IPv4 CIDR arithmetic for subnet allocation. */
export interface Cidr {
  readonly base: number;
  readonly prefix: number;
}

export function parseCidr(s: string): Cidr {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(s.trim());
  const octets = m ? m.slice(1, 5).map(Number) : [];
  const prefix = Number(m?.[5]);
  if (!m || octets.some((o) => o > 255) || prefix > 32) throw new Error(`invalid IPv4 CIDR "${s}"`);
  const addr = octets.reduce((a, o) => a * 256 + o, 0);
  const size = 2 ** (32 - prefix);
  return { base: addr - (addr % size), prefix };
}

export function formatCidr(c: Cidr): string {
  const o = [24, 16, 8, 0].map((s) => Math.floor(c.base / 2 ** s) % 256);
  return `${o.join('.')}/${c.prefix}`;
}

/** The `index`-th subnet of length `prefix` inside `net`, undefined when past the end. */
export function nthSubnet(net: Cidr, prefix: number, index: number): Cidr | undefined {
  if (prefix < net.prefix) return undefined;
  const count = 2 ** (prefix - net.prefix);
  return index < count ? { base: net.base + index * 2 ** (32 - prefix), prefix } : undefined;
}
