import type { HostKeyStore, PinnedHostKey } from '../host/host-key-store.js';
import { isPinOf, type HostPinRemover } from '../host/host-pins.js';
import type { NodeRecord, RecordSource } from './node-record.js';
import type { NodeRecords } from './node-record-store.js';

/** The pin keys a record covers: its address and its DNS name (each with any port). */
export function recordCovers(record: NodeRecord, key: string): boolean {
  const k = key.toLowerCase();
  return isPinOf(k, record.address) || (record.dnsName !== undefined && isPinOf(k, record.dnsName));
}

const hostsOf = (r: NodeRecord): string[] => [r.address, ...(r.dnsName === undefined ? [] : [r.dnsName])];

/** A host's key was asked to be pinned again while its record holds another: never replaced silently. */
export class RecordedHostKeyConflictError extends Error {
  constructor(readonly key: string) {
    super(`the node record of ${key} already pins another SSH host key; it is not replaced`);
    this.name = 'RecordedHostKeyConflictError';
  }
}

/**
 * Host-key pins whose home is the operator's node records (ADR 0038). A host with a record is checked
 * against the record's pin, and a first key it presents is written into the record. A host with no record
 * yet (a join in flight: the record is written only once the Node registered) is pinned in `pending`,
 * which is forgotten when its instance goes without a record (EntryPins, MachinePins) and handed over
 * when the record is written through `records` (the record takes the pending pin; the pending one goes).
 */
export class RecordedHostKeys implements HostKeyStore, HostPinRemover {
  /** The node records, writing through this store so a record takes its host's pending pin. */
  readonly records: NodeRecords;

  constructor(
    private readonly inner: NodeRecords,
    private readonly pending: HostKeyStore & HostPinRemover,
  ) {
    this.records = pinCarryingRecords(inner, this);
  }

  /** The record that holds (or will hold) the pin of `key`. */
  recordOf(key: string): NodeRecord | undefined {
    return this.inner.all().find((r) => recordCovers(r, key));
  }

  /**
   * The record's pin; else the pending pin, which a record without a pin (one made on start for a node
   * joined before records) takes at once: the pin then lives in the record alone. A hand-over that fails
   * leaves the pin pending, to be handed over at the next read.
   */
  async get(key: string): Promise<PinnedHostKey | undefined> {
    const record = this.recordOf(key);
    if (record?.hostKey !== undefined) return record.hostKey;
    const pin = await this.pending.get(key);
    if (record !== undefined && pin !== undefined) {
      await this.inner
        .put({ ...record, hostKey: pin })
        .then(() => this.dropPending(record))
        .catch(() => undefined);
    }
    return pin;
  }

  async pin(key: string, hostKey: PinnedHostKey): Promise<void> {
    const record = this.recordOf(key);
    if (record === undefined) return this.pending.pin(key, hostKey);
    if (record.hostKey !== undefined) {
      if (record.hostKey.base64 === hostKey.base64) return;
      throw new RecordedHostKeyConflictError(key);
    }
    await this.inner.put({ ...record, hostKey });
  }

  /** Forgets a pending pin; a recorded pin goes only with its record. */
  forget(key: string): Promise<void> {
    return this.pending.forget(key);
  }

  forgetHosts(hosts: readonly string[]): Promise<readonly string[]> {
    return this.pending.forgetHosts(hosts);
  }

  /** The pending pin of a record's host (by address, then DNS name), for the record to take. */
  async pendingPin(record: NodeRecord): Promise<PinnedHostKey | undefined> {
    for (const h of hostsOf(record)) {
      const pin = await this.pending.get(h);
      if (pin !== undefined) return pin;
    }
    return undefined;
  }

  /** Drops the pending pins of a record's host (it holds the pin now, or is gone). */
  async dropPending(record: NodeRecord): Promise<void> {
    await this.pending.forgetHosts(hostsOf(record));
  }
}

/**
 * `inner`, whose writes carry pins: a record written without a pin takes its host's pending pin, and once
 * written the pending pins of its host are dropped; a removed record's pending pins go with it.
 */
function pinCarryingRecords(inner: NodeRecords, pins: RecordedHostKeys): NodeRecords {
  return {
    get: (source, instance) => inner.get(source, instance),
    forNode: (nodeName) => inner.forNode(nodeName),
    all: () => inner.all(),
    async put(record: NodeRecord): Promise<void> {
      const hostKey = record.hostKey ?? (await pins.pendingPin(record));
      const written = hostKey === undefined ? record : { ...record, hostKey };
      await inner.put(written);
      if (hostKey !== undefined) await pins.dropPending(written);
    },
    async remove(source: RecordSource, instance: string): Promise<void> {
      const before = inner.get(source, instance);
      await inner.remove(source, instance);
      if (before !== undefined) await pins.dropPending(before);
    },
    ...(inner.onChange ? { onChange: (l: () => void) => inner.onChange?.(l) } : {}),
  };
}
