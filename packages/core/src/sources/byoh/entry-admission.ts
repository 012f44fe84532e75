import type { V1Node } from '@kubernetes/client-node';
import { STRICT_ADDRESS_POLICY, type InstanceAddressPolicy } from '../../desired/instance-address.js';
import type { NodeRef } from '../../desired/node-ref.js';
import {
  parseWindowsInstances,
  type Ipv4Resolver,
  type WindowsInstanceResult,
} from '../../desired/windows-instances.js';
import type { NodeRecords } from '../../identity/node-record-store.js';
import type { NodeRecord } from '../../identity/node-record.js';
import { AddressClaims } from './address-claims.js';
import type { ByohView } from './byoh-view.js';

/** How `windows-instances` keys are turned into hosts, and which hosts are off limits. */
export interface EntryAddressing {
  readonly resolve: Ipv4Resolver;
  /** The address policy now (loopback allowed?, the cluster's own addresses); default: strict, none. */
  readonly policy?: () => Promise<InstanceAddressPolicy>;
}

/** A refused entry; `keepStatus` when its key is another entry's host, whose status must not be clobbered. */
export type AdmissionResult = WindowsInstanceResult | (WindowsInstanceResult & { keepStatus: true });

export function nodeRef(n: V1Node): NodeRef {
  return {
    name: n.metadata?.name ?? '',
    addresses: (n.status?.addresses ?? []).map((a) => ({ type: a.type, address: a.address })),
  };
}

/**
 * Decides whether one `windows-instances` entry may be worked on: its key parses (canonical IPv4 or a DNS
 * name), its address passes the policy, and no other entry already stands for the same host. Nothing
 * here connects to the host, so a refused entry never costs an SSH connection.
 */
export class EntryAdmission {
  private readonly claims = new AddressClaims();
  private live: { readonly data: object | undefined; readonly keys: ReadonlySet<string> } | undefined;
  private refs: { readonly revision: number; readonly refs: readonly NodeRef[] } | undefined;
  private byAddress:
    { readonly of: readonly NodeRecord[]; readonly records: ReadonlyMap<string, NodeRecord[]> } | undefined;

  constructor(
    private readonly view: ByohView,
    private readonly addressing: EntryAddressing,
    private readonly records?: NodeRecords,
  ) {}

  async admit(entry: string, value: string): Promise<AdmissionResult> {
    const policy = (await this.addressing.policy?.()) ?? STRICT_ADDRESS_POLICY;
    const [result] = await parseWindowsInstances(
      { [entry]: value },
      this.nodeRefs(),
      this.addressing.resolve,
      policy,
    );
    if (!result) return { key: entry, ok: false, error: 'unparseable entry' };
    if (!result.ok) return result;
    const ipv4 = result.instance.ipv4Address;
    const source = this.view.source?.record ?? 'windows-instances';
    const elsewhere = this.joinedElsewhere(entry, ipv4, source);
    if (elsewhere !== undefined) return elsewhere;
    const owner = this.otherOwner(entry, ipv4, source);
    if (owner === undefined) return result;
    const error =
      `windows-instances entry "${entry}": reaches the same host (${ipv4}) as entry "${owner}"; ` +
      'a host is listed once, so this entry is ignored';
    return { key: entry, ok: false, error, ...(entry === ipv4 ? { keepStatus: true as const } : {}) };
  }

  /**
   * Another source (windows-instances, an embedder's, a Machine) joined this host, as the operator's
   * records say: it is never touched here, and that source's status (kept under the same address) stays.
   */
  private joinedElsewhere(entry: string, ipv4: string, source: string): AdmissionResult | undefined {
    const other = this.recordsAt(ipv4).find((r) => r.source !== source);
    if (other === undefined) return undefined;
    const error = `the host (${ipv4}) was joined by source ${other.source} as node ${other.nodeName}; it is left to that source`;
    return { key: entry, ok: false, error, keepStatus: true };
  }

  /**
   * The other entry that stands for the host at `ipv4`, if any (else `entry` now holds it). Which entry
   * joined the host is read from the operator's records, never from a Node's address or annotation.
   */
  private otherOwner(entry: string, ipv4: string, source: string): string | undefined {
    const joinedAs = this.recordsAt(ipv4).find((r) => r.source === source)?.instance;
    return this.claims.claim(entry, ipv4, this.liveEntries(), joinedAs);
  }

  /**
   * The records of the host at `ipv4`, in the records' order, indexed once per list of records (the
   * record store keeps one list per change): every entry of a pass asks.
   */
  private recordsAt(ipv4: string): readonly NodeRecord[] {
    const all = this.records?.all() ?? [];
    if (this.byAddress?.of !== all) {
      const records = new Map<string, NodeRecord[]>();
      for (const r of all) {
        const here = records.get(r.address);
        if (here) here.push(r);
        else records.set(r.address, [r]);
      }
      this.byAddress = { of: all, records };
    }
    return this.byAddress.records.get(ipv4) ?? [];
  }

  /** The Windows nodes as entries are checked against them, built once per change of the nodes. */
  private nodeRefs(): readonly NodeRef[] {
    const revision = this.view.windowsNodesRevision();
    if (this.refs?.revision !== revision)
      this.refs = { revision, refs: this.view.windowsNodes().map(nodeRef) };
    return this.refs.refs;
  }

  /** The listed entries, as a set built once per version of the list (every entry of a pass asks). */
  private liveEntries(): ReadonlySet<string> {
    const data = this.view.instances();
    if (!this.live || this.live.data !== data) this.live = { data, keys: new Set(Object.keys(data ?? {})) };
    return this.live.keys;
  }
}
