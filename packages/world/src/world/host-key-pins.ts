import {
  NODE_RECORD_LABEL,
  PENDING_HOST_KEYS_CONFIGMAP,
  decodeNodeRecord,
  type NodeRecord,
} from '@wmco/core/internal';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import type { SimWorld } from './sim-world.js';
import { apis } from './world-fixture.js';

/** Where the operator keeps each pin (ADR 0038): a node record's, or pending (no record yet). */
export interface HostKeyPins {
  /** Recorded pins by the record's address and DNS name, as `type base64`. */
  readonly recorded: Record<string, string>;
  /** `windows-ssh-host-keys-pending`: pins of hosts without a record. */
  readonly pending: Record<string, string>;
}

async function records(world: SimWorld): Promise<NodeRecord[]> {
  const list = await apis(world).core.listNamespacedConfigMap({
    namespace: OPERATOR_NAMESPACE,
    labelSelector: NODE_RECORD_LABEL,
  });
  return list.items.map(decodeNodeRecord).filter((r): r is NodeRecord => r !== undefined);
}

/** The pins the operator holds now, read from the cluster. */
export async function hostKeyPins(world: SimWorld): Promise<HostKeyPins> {
  const recorded: Record<string, string> = {};
  for (const r of await records(world)) {
    if (r.hostKey === undefined) continue;
    for (const h of [r.address, r.dnsName])
      if (h !== undefined) recorded[h] = `${r.hostKey.type} ${r.hostKey.base64}`;
  }
  const cm = await apis(world)
    .core.readNamespacedConfigMap({ name: PENDING_HOST_KEYS_CONFIGMAP, namespace: OPERATOR_NAMESPACE })
    .catch(() => undefined);
  return { recorded, pending: cm?.data ?? {} };
}

/** The pins of `host` (its own key, or `host:<port>`), recorded or pending. */
export function pinsOfHost(pins: HostKeyPins, host: string): { recorded: string[]; pending: string[] } {
  const of = (data: Record<string, string>): string[] =>
    Object.entries(data)
      .filter(([k]) => k === host || k.startsWith(`${host}:`))
      .map(([, v]) => v);
  return { recorded: of(pins.recorded), pending: of(pins.pending) };
}
