import { forgetHostPins, type HostPinRemover } from '../../host/host-pins.js';
import type { Logger } from '../../kube/logger.js';
import { windowsMachine, type MachineResource, type WindowsMachine } from './machine-object.js';

/**
 * The host-key pins of Machines, forgotten when the Machine is deleted: once when its deletion starts (its
 * VM is still there, so its address cannot have been given to another yet) and again when it is gone (a
 * connection made meanwhile may have pinned the old key again). A pin stays while another Machine that is
 * not being deleted has the address: it may be that Machine's own.
 */
export class MachinePins {
  /** The IPv4 address of each Machine seen (by namespace/name). */
  private readonly addresses = new Map<string, string>();
  /** Machines (uid) whose deletion has been handled already. */
  private readonly deleting = new Set<string>();

  constructor(
    private readonly pins: HostPinRemover,
    private readonly machines: () => readonly MachineResource[],
    private readonly logger: Logger,
  ) {}

  /** A Machine as the cache shows it now: its address is remembered; a deleting one's pins go (once). */
  async seen(key: string, m: WindowsMachine): Promise<void> {
    if (!m.windows || m.ipv4 === undefined) return;
    this.addresses.set(key, m.ipv4);
    if (!m.deleting || this.deleting.has(m.uid)) return;
    this.deleting.add(m.uid);
    await this.forget(m.ipv4, `Machine ${key} is being deleted`);
  }

  /** The Machine is gone from the cache. */
  async gone(key: string): Promise<void> {
    const ipv4 = this.addresses.get(key);
    this.addresses.delete(key);
    if (ipv4 !== undefined) await this.forget(ipv4, `Machine ${key} was deleted`);
    const live = new Set(this.machines().map((r) => r.metadata?.uid));
    for (const uid of this.deleting) if (!live.has(uid)) this.deleting.delete(uid);
  }

  private async forget(ipv4: string, why: string): Promise<void> {
    const claimed = this.machines()
      .map(windowsMachine)
      .some((m) => !m.deleting && m.ipv4 === ipv4);
    if (claimed) return;
    const gone = await forgetHostPins(this.pins, [ipv4]);
    if (gone.length > 0) this.logger.info({ pins: gone }, `${why}: forgot its SSH host key pins`);
  }
}
