import type { WindowsInstance } from '../../desired/windows-instances.js';
import type { DriftSettings } from '../../lifecycle/drift-checks.js';
import type { JoinFlow } from '../../lifecycle/join-flow.js';
import type { KeyRotation } from '../../lifecycle/key-rotation.js';
import type { NodeUpgrades } from '../../lifecycle/node-upgrades.js';
import type { RemoveFlow, RemoveOptions } from '../../lifecycle/remove-flow.js';
import type { ByohTakeover } from './byoh-takeover.js';
import type { EntryPins } from './entry-pins.js';

/** The flows the BYOH reconciler hands each entry to. */
export interface InstanceFlows {
  readonly join: JoinFlow;
  readonly remove: RemoveFlow;
  readonly removeOptions: RemoveOptions;
  readonly rotation: KeyRotation;
  /** A joined node of another version goes through the upgrade flow (lifecycle/), never the join. */
  readonly upgrades: NodeUpgrades;
  /** Periodic drift repair of up-to-date nodes; absent or `intervalMs` 0 turns it off. */
  readonly drift?: DriftSettings;
  /** Forgets the host-key pins of removed entries (absent: pins are kept). */
  readonly pins?: EntryPins;
  /** Adopts nodes the Go WMCO joined (absent: such a node's name refuses the join). */
  readonly takeover?: ByohTakeover;
}

/** One admitted entry's reconcile, once the key is known. */
export interface EntryWork {
  readonly entry: string;
  readonly instance: WindowsInstance;
  readonly privateKey: string;
  readonly hash: string;
  readonly signal: AbortSignal;
  readonly began: number;
}
