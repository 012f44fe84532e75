import type { V1Node } from '@kubernetes/client-node';
import ipaddr from 'ipaddr.js';
import type { Ipv4Resolver } from '../../desired/windows-instances.js';
import type { HostKeyStore } from '../../host/host-key-store.js';
import { forgetHostPins, type HostPinRemover } from '../../host/host-pins.js';
import type { Logger } from '../../kube/logger.js';
import { Annotations } from '../../identity/node-metadata.js';
import type { ByohView } from './byoh-view.js';
import { nodeInternalIp } from '../../lifecycle/node-ops.js';

/** Where host keys are pinned and forgotten. */
export type PinStore = HostKeyStore & HostPinRemover;

/**
 * The host-key pins of `windows-instances` entries, forgotten when the entry goes: at once when no Node of
 * it is left, else when its Node's removal has finished (a removal still connects, under the pin). An
 * address or name that a current entry still uses keeps its pin.
 */
export class EntryPins {
  /** The IPv4 address each DNS-named entry last resolved to (the one its host is reached at). */
  private readonly resolved = new Map<string, string>();

  constructor(
    private readonly pins: HostPinRemover,
    private readonly view: Pick<ByohView, 'instances' | 'windowsNodes'>,
    private readonly logger: Logger,
  ) {}

  /** `resolve`, remembering the address each name resolved to (the first IPv4, as entries use it). */
  recording(resolve: Ipv4Resolver): Ipv4Resolver {
    return async (name) => {
      const found = await resolve(name);
      const first = found.find((a) => ipaddr.IPv4.isValidFourPartDecimal(a));
      if (first !== undefined) this.resolved.set(name, first);
      return found;
    };
  }

  /** The entry left `windows-instances`: its pins go unless a Node of it is still to be removed. */
  async entryGone(entry: string): Promise<void> {
    const ipv4 = this.resolved.get(entry) ?? entry;
    const joined = this.view.windowsNodes().some((n) => joinedAs(n) === entry || nodeInternalIp(n) === ipv4);
    if (joined) return;
    await this.forget([entry, ipv4], `windows-instances entry ${entry} removed`);
    if (!this.entries().includes(entry)) this.resolved.delete(entry);
  }

  /** A removed entry's host, as the operator's record names it, was deconfigured: its pins go. */
  async recordRemoved(record: { readonly instance: string; readonly address: string }): Promise<void> {
    await this.forget(
      [record.instance, record.address],
      `windows-instances entry ${record.instance} removed`,
    );
  }

  /** The Node of a removed entry was deconfigured and deleted: the pins of its host go. */
  async nodeRemoved(node: V1Node): Promise<void> {
    const name = node.metadata?.name ?? '';
    await this.forget([joinedAs(node), nodeInternalIp(node)], `node ${name} removed`);
  }

  private async forget(hosts: readonly (string | undefined)[], why: string): Promise<void> {
    const inUse = new Set(this.entries().flatMap((e) => [e, this.resolved.get(e)]));
    const gone = await forgetHostPins(
      this.pins,
      hosts.filter((h) => h !== undefined && !inUse.has(h)),
    );
    if (gone.length > 0) this.logger.info({ pins: gone }, `${why}: forgot its SSH host key pins`);
  }

  private entries(): string[] {
    return Object.keys(this.view.instances() ?? {});
  }
}

function joinedAs(node: V1Node): string | undefined {
  return node.metadata?.annotations?.[Annotations.instanceAddress];
}
