import type { HostKeyStore, PinnedHostKey } from '../../host/host-key-store.js';
import { forgetHostPins, type HostPinRemover } from '../../host/host-pins.js';
import type { Logger } from '../../kube/logger.js';
import { windowsMachine, type MachineResource, type WindowsMachine } from './machine-object.js';

interface Seen {
  readonly ipv4: string;
  /** The key pinned for the address while the Machine was there (undefined: none seen). */
  readonly pin: PinnedHostKey | undefined;
}

/**
 * The host-key pins of Machines, forgotten when the Machine is deleted: when its deletion starts (its VM is
 * still there, so its address cannot have been given to another yet) and again when it is gone (a
 * connection made meanwhile may have pinned the old key again). Deletions come straight from the Machine
 * watch, not through the work queue, where a reconcile still connecting to the dying VM could hold them
 * back. Only the key pinned while the Machine was there is forgotten: a new Machine at the same address
 * that pinned its own key keeps it. A Machine whose pin was never seen has its address's pins forgotten
 * unless another live Machine has that address.
 */
export class MachinePins {
  /** What was seen of each Machine (by namespace/name). */
  private readonly seenMachines = new Map<string, Seen>();

  constructor(
    private readonly pins: HostKeyStore & HostPinRemover,
    private readonly machines: () => readonly MachineResource[],
    private readonly logger: Logger,
  ) {}

  /** A live Machine as the cache shows it now: its address and the key pinned there are remembered. */
  async seen(key: string, m: WindowsMachine): Promise<void> {
    if (!m.windows || m.ipv4 === undefined || m.deleting) return;
    const pin = (await this.pins.get(m.ipv4)) ?? this.seenMachines.get(key)?.pin;
    this.seenMachines.set(key, { ipv4: m.ipv4, pin });
  }

  /** The Machine is being deleted (`gone`: it is gone from the API): its pin goes. */
  async deleted(res: MachineResource, gone: boolean): Promise<void> {
    const m = windowsMachine(res);
    const key = `${m.namespace}/${m.name}`;
    const seen = this.seenMachines.get(key) ?? (m.ipv4 ? { ipv4: m.ipv4, pin: undefined } : undefined);
    if (gone) this.seenMachines.delete(key);
    if (seen === undefined || !m.windows) return;
    if (seen.pin === undefined ? this.claimedByAnother(seen.ipv4) : !(await this.stillPinned(seen))) return;
    const removed = await forgetHostPins(this.pins, [seen.ipv4]);
    const why = gone ? `Machine ${key} was deleted` : `Machine ${key} is being deleted`;
    if (removed.length > 0) this.logger.info({ pins: removed }, `${why}: forgot its SSH host key pins`);
  }

  /** Whether the address still holds the key pinned while the Machine was there. */
  private async stillPinned(seen: Seen): Promise<boolean> {
    const now = await this.pins.get(seen.ipv4);
    return now !== undefined && now.base64 === seen.pin?.base64;
  }

  private claimedByAnother(ipv4: string): boolean {
    return this.machines()
      .map(windowsMachine)
      .some((m) => !m.deleting && m.ipv4 === ipv4);
  }
}
