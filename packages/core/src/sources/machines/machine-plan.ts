import type { V1Node } from '@kubernetes/client-node';
import { Annotations } from '../../identity/node-metadata.js';
import { errorMessage } from '../../kube/logger.js';
import { maintenancePlan } from '../../lifecycle/maintenance-plan.js';
import { needsMaintenance } from '../../lifecycle/node-upgrades.js';
import { driftCheckPlan } from '../../lifecycle/drift-check-plan.js';
import { notConfigurable, type WindowsMachine } from './machine-object.js';

/** How far a Machine's node is configured: with this version and key, another key, another version, or not (yet). */
export type MachineNodeState = 'current' | 'other-key' | 'other-version' | 'not-joined';

/**
 * The Machine reconciler's view of a Machine's node: not joined without a version annotation, replaced
 * when its key hash differs, upgraded in place by the lifecycle when its version differs (ADR 0020).
 */
export function machineNodeState(node: V1Node | undefined, hash: string, version: string): MachineNodeState {
  const a = node?.metadata?.annotations ?? {};
  const v = a[Annotations.version];
  if (v === undefined) return 'not-joined';
  if (a[Annotations.pubKeyHash] !== hash) return 'other-key';
  return v === version ? 'current' : 'other-version';
}

/**
 * What the operator does to a Windows Machine now: `join` (configure its host), `upgrade`, `reboot` or
 * `resume` (the shared maintenance flow: another version, a reboot request, or a pass the operator left
 * mid-way), `replace` (its node has another key), `check-drift` (the drift check of a current node,
 * Ready or not), or leave it: `nothing`, `wait` (for something outside the operator), `ignore` (labelled).
 */
export type MachineAction =
  'join' | 'upgrade' | 'reboot' | 'resume' | 'replace' | 'check-drift' | 'nothing' | 'wait' | 'ignore';

export interface MachinePlan {
  readonly action: MachineAction;
  readonly reason: string;
  /** `join`: the computer name HostRename gives the host first (undefined: the platform keeps the name). */
  readonly hostname?: string;
  /** `nothing` because HostRename refuses the Machine's name: why (the reconciler reports it once). */
  readonly nameError?: string;
}

export interface MachinePlanInput {
  readonly machine: WindowsMachine;
  /** The Machine's node (nodeOfMachine), if any. */
  readonly node: V1Node | undefined;
  /** Hash of the operator's public key; undefined when there is no private key Secret. */
  readonly publicKeyHash: string | undefined;
  /** The operator version the plan is made for. */
  readonly version: string;
  /** Whether the platform's provider has a Machine API (MachineAccess); without it Machines are not watched. */
  readonly machineApi: boolean;
  /** HostRename's computer name for the Machine (throws for a name the platform cannot use). */
  readonly hostname: (machineName: string) => string | undefined;
  /** SSH user of Machines (MachineAccess). */
  readonly sshUser: string;
}

/** Reasons the reconciler leaves a Machine alone before looking at its node. */
function notNow(i: MachinePlanInput): MachinePlan | undefined {
  if (!i.machineApi)
    return { action: 'nothing', reason: 'the platform has no Machine API: Machines are not watched' };
  const why = notConfigurable(i.machine);
  if (why === undefined) return undefined;
  if (i.machine.ignored) return { action: 'ignore', reason: why };
  if (i.machine.deleting) return { action: 'nothing', reason: why };
  return { action: 'wait', reason: why };
}

function joinPlan(i: MachinePlanInput): MachinePlan {
  let hostname: string | undefined;
  try {
    hostname = i.hostname(i.machine.name);
  } catch (err) {
    const nameError = errorMessage(err);
    return { action: 'nothing', reason: `the Machine name cannot be used: ${nameError}`, nameError };
  }
  const version = i.node?.metadata?.annotations?.[Annotations.version];
  const how = [
    `as ${i.sshUser} at ${i.machine.ipv4 ?? ''}`,
    ...(hostname !== undefined ? [`renaming the host to ${hostname} first`] : []),
  ].join(', ');
  const renamed = hostname === undefined ? {} : { hostname };
  if (version !== undefined)
    return {
      action: 'join',
      reason: `configure again ${how}: the node has version ${version}, not ${i.version}, and is not Ready`,
      ...renamed,
    };
  return { action: 'join', reason: `configure ${how}`, ...renamed };
}

/**
 * A node with this version and key: its drift check, Ready or not. A node that is not Ready was left to
 * wait for its kubelet until 2026-11-28, so a stopped kubelet was never started again (upstream's WICD
 * restarts it in its periodic resync, which the drift check stands for); the check puts back what
 * stopped or changed and leaves a host that matches its spec alone (BYOH decides alike: byoh-plan.ts).
 */
function currentPlan(node: V1Node): MachinePlan {
  return driftCheckPlan(node);
}

/**
 * The one decision of what a Windows Machine needs next: the Machine reconciler acts on it, `wmco plan`
 * prints it. Checks in order: configurable, key, node state (maintenance first), name.
 */
export function planMachine(i: MachinePlanInput): MachinePlan {
  const early = notNow(i);
  if (early) return early;
  if (i.publicKeyHash === undefined) return { action: 'wait', reason: 'no private key Secret' };
  const state = machineNodeState(i.node, i.publicKeyHash, i.version);
  if (state === 'other-key')
    return {
      action: 'replace',
      reason:
        'its node was configured with another private key: deleted so its MachineSet recreates it, one at a time',
    };
  if (i.node !== undefined && state !== 'not-joined') {
    if (needsMaintenance(i.node, i.version)) return maintenancePlan(i.node, i.version);
    if (state === 'current') return currentPlan(i.node);
  }
  return joinPlan(i);
}
