import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import ipaddr from 'ipaddr.js';
import type { InstanceAddressPolicy } from '../../desired/instance-address.js';
import type { Ipv4Resolver } from '../../desired/windows-instances.js';

export interface ClusterAddressesOptions {
  readonly core: CoreV1Api;
  /** The API server URLs the cluster uses (the operator's own server, `apiServerInternalURI`). */
  readonly apiUrls: () => Promise<readonly string[]>;
  readonly resolve: Ipv4Resolver;
  /** Loopback instances allowed (the simulated world only; off by default in `wmco run`). */
  readonly allowLoopback: boolean;
  /** How long one answer is reused (default 30 s), so a busy queue does not list Nodes per key. */
  readonly ttlMs?: number;
  readonly now?: () => number;
}

const NODE_ADDRESS_TYPES = new Set(['InternalIP', 'ExternalIP']);

function nodeAddresses(n: V1Node): string[] {
  return (n.status?.addresses ?? [])
    .filter((a) => NODE_ADDRESS_TYPES.has(a.type) && ipaddr.IPv4.isValidFourPartDecimal(a.address))
    .map((a) => a.address);
}

/**
 * The address policy with the cluster's own addresses filled in: the API server's, and every address
 * of a Node that is not a Windows node (control plane and Linux workers). A windows-instances key that
 * reaches one of them is refused before any SSH connection.
 */
export class ClusterAddresses {
  private cached: { at: number; policy: Promise<InstanceAddressPolicy> } | undefined;

  constructor(private readonly o: ClusterAddressesOptions) {}

  readonly policy = (): Promise<InstanceAddressPolicy> => {
    const now = (this.o.now ?? Date.now)();
    if (this.cached && now - this.cached.at < (this.o.ttlMs ?? 30_000)) return this.cached.policy;
    const policy = this.read();
    this.cached = { at: now, policy };
    // A failed read is not kept: the next key asks again.
    policy.catch(() => (this.cached = undefined));
    return policy;
  };

  private async read(): Promise<InstanceAddressPolicy> {
    const reserved = new Map<string, string>();
    for (const url of await this.o.apiUrls()) {
      for (const ip of await this.hostAddresses(url)) reserved.set(ip, "the cluster's API server");
    }
    const nodes = await this.o.core.listNode({ labelSelector: 'kubernetes.io/os!=windows' });
    for (const n of nodes.items) {
      for (const ip of nodeAddresses(n)) reserved.set(ip, `the address of node ${n.metadata?.name ?? '?'}`);
    }
    return { allowLoopback: this.o.allowLoopback, reserved };
  }

  private async hostAddresses(url: string): Promise<readonly string[]> {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return [];
    }
    if (ipaddr.IPv4.isValidFourPartDecimal(host)) return [host];
    // A name that does not resolve here cannot be reached by mistake either.
    const found = await this.o.resolve(host).catch(() => []);
    return found.filter((a) => ipaddr.IPv4.isValidFourPartDecimal(a));
  }
}
