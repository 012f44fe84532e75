import type { V1Node } from '@kubernetes/client-node';
import type { WindowsInstance } from '../../desired/windows-instances.js';
import type { NodeRecord } from '../../identity/node-record.js';
import { clearCondition, noteNextRetry, setCondition } from '../../lifecycle/instance-conditions.js';
import { instancesConfigMapRef, type JoinDeps } from '../../lifecycle/join-deps.js';
import { ENTRY_PREFIX } from './byoh-view.js';

/** Condition types of BYOH instances in `windows-instances-status`. */
export const CHANGE_IGNORED = 'ChangeIgnored';
export const PRIVATE_KEY_PENDING = 'PrivateKeyPending';

/**
 * What `wmco status` must show of a BYOH instance besides its phase, kept in its status until it no longer
 * holds: when a failed join is tried again, an entry change the operator ignores, and a new private key
 * the host does not accept yet. Each condition that begins is also said once as an event.
 */
export class ByohAttention {
  /** Status key (IPv4 address) of each entry, as its last reconcile resolved it. */
  private readonly statusKeys = new Map<string, string>();
  /** The message last said as an event per condition type and status key: each is said once. */
  private readonly said = new Map<string, string>();

  constructor(private readonly deps: JoinDeps) {}

  /** Remembers where an entry's status is kept, for `retrying`. */
  track(entry: string, instance: WindowsInstance): void {
    this.statusKeys.set(entry, instance.ipv4Address);
  }

  forget(entry: string): void {
    const key = this.statusKeys.get(entry);
    this.statusKeys.delete(entry);
    for (const type of [CHANGE_IGNORED, PRIVATE_KEY_PENDING]) this.said.delete(`${type}/${key ?? entry}`);
  }

  /** A failed entry's next attempt, from the work queue's backoff. */
  async retrying(key: string, delayMs: number): Promise<void> {
    if (!key.startsWith(ENTRY_PREFIX)) return;
    const entry = key.slice(ENTRY_PREFIX.length);
    const statusKey = this.statusKeys.get(entry) ?? entry;
    await noteNextRetry(this.deps.status, statusKey, new Date(this.now() + delayMs));
  }

  /**
   * The instance as the operator acts on it once joined: with the username it joined with (its record),
   * whatever the entry says now. A different `username=` is reported as ignored, with the way to apply it.
   */
  async joinedAs(entry: string, instance: WindowsInstance, record: NodeRecord): Promise<WindowsInstance> {
    const key = instance.ipv4Address;
    if (record.username === instance.username) {
      this.said.delete(`${CHANGE_IGNORED}/${key}`);
      await clearCondition(this.deps.status, key, CHANGE_IGNORED);
      return instance;
    }
    const message =
      `windows-instances entry "${entry}": username changed from "${record.username}" to "${instance.username}" ` +
      `after node ${record.nodeName} joined; the change is ignored and the operator keeps using "${record.username}". ` +
      'To join the host as the new user, remove the entry, wait until the node is gone, then add it again';
    await this.report(key, { type: CHANGE_IGNORED, reason: 'InstanceChangeIgnored', message });
    return { ...instance, username: record.username };
  }

  /** A joined node that does not accept the new private key yet: pending until it does. */
  async keyPending(instance: WindowsInstance, node: V1Node, retryMs: number): Promise<void> {
    const name = node.metadata?.name ?? '';
    const message =
      `instance ${instance.address} (node ${name}) does not accept the new private key yet: add its public key to ` +
      `C:\\ProgramData\\ssh\\administrators_authorized_keys on the host; the operator checks again every ${Math.round(retryMs / 1000)}s`;
    await this.report(instance.ipv4Address, {
      type: PRIVATE_KEY_PENDING,
      reason: 'PrivateKeyNotAccepted',
      message,
    });
  }

  /** The node uses the current private key (re-keyed, or never needed another). */
  async keyCurrent(instance: WindowsInstance): Promise<void> {
    this.said.delete(`${PRIVATE_KEY_PENDING}/${instance.ipv4Address}`);
    await clearCondition(this.deps.status, instance.ipv4Address, PRIVATE_KEY_PENDING);
  }

  private async report(
    key: string,
    condition: { type: string; reason: string; message: string },
  ): Promise<void> {
    await setCondition(this.deps.status, key, condition, new Date(this.now()));
    const topic = `${condition.type}/${key}`;
    if (this.said.get(topic) === condition.message) return;
    this.said.set(topic, condition.message);
    this.deps.logger.warn({ reason: condition.reason }, condition.message);
    await this.deps.events.record(
      instancesConfigMapRef(this.deps.namespace),
      'Warning',
      condition.reason,
      condition.message,
    );
  }

  private now(): number {
    return (this.deps.now?.() ?? new Date()).getTime();
  }
}
