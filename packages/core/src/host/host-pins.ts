/**
 * A host-key store that can drop every pin of a host at once, whichever port it was reached on: pins are
 * kept under `host` (port 22) or `host:<port>`, and under a DNS name as well as its address.
 */
export interface HostPinRemover {
  /** Removes the pins of each host (`host` and `host:<port>`); resolves to the keys it removed. */
  forgetHosts(hosts: readonly string[]): Promise<readonly string[]>;
}

/** Whether the pin key `key` belongs to `host`: the host itself, or the host and a port. */
export function isPinOf(key: string, host: string): boolean {
  if (host === '') return false;
  if (key === host) return true;
  return key.startsWith(`${host}:`) && /^\d{1,5}$/.test(key.slice(host.length + 1));
}

/** The keys of `keys` that belong to any of `hosts`. */
export function pinsOf(keys: Iterable<string>, hosts: readonly string[]): string[] {
  return [...keys].filter((k) => hosts.some((h) => isPinOf(k, h)));
}

/**
 * Forgets the host keys pinned for an instance that is gone (its `windows-instances` entry removed and its
 * Node removed, or its Machine deleted), so a new machine given the same address or name later is trusted
 * on first use instead of refused for ever. `hosts`: the addresses and names the instance was reached by.
 * Resolves to the pin keys removed.
 */
export async function forgetHostPins(
  pins: HostPinRemover,
  hosts: readonly (string | undefined)[],
): Promise<readonly string[]> {
  const wanted = [...new Set(hosts.filter((h): h is string => h !== undefined && h !== ''))];
  return wanted.length === 0 ? [] : pins.forgetHosts(wanted);
}
