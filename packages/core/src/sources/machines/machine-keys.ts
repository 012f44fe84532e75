import type { V1Node } from '@kubernetes/client-node';
import { nodeMachine } from './machine-instance.js';
import type { MachineResource } from './machine-object.js';

/** A Machine's queue key, `<namespace>/<name>` (undefined for no Machine). */
export function machineKeyOf(m: MachineResource): string;
export function machineKeyOf(m: MachineResource | undefined): string | undefined;
export function machineKeyOf(m: MachineResource | undefined): string | undefined {
  return m === undefined ? undefined : `${m.metadata?.namespace ?? ''}/${m.metadata?.name ?? ''}`;
}

/** The queue key of the Machine behind a Node: its annotation, or the Machine whose nodeRef names it. */
export function ownerKey(n: V1Node | undefined, machines: readonly MachineResource[]): string | undefined {
  const name = n?.metadata?.name;
  if (n === undefined || name === undefined) return undefined;
  return nodeMachine(n) ?? machineKeyOf(machines.find((m) => m.status?.nodeRef?.name === name));
}

/**
 * The queue keys of the Machines among names that waited for the disruption budget: a node's owner, or
 * `machine/<name>` (a replacement waiting for its slot). A BYOH node's name, or one gone meanwhile, gives
 * none: it is not this source's to look at.
 */
export function waitingMachineKeys(
  names: readonly string[],
  machines: readonly MachineResource[],
  nodes: readonly V1Node[],
): string[] {
  const keys: string[] = [];
  for (const name of names) {
    const key = name.startsWith('machine/')
      ? machineKeyOf(machines.find((m) => `machine/${m.metadata?.name ?? ''}` === name))
      : ownerKey(
          nodes.find((n) => n.metadata?.name === name),
          machines,
        );
    if (key !== undefined) keys.push(key);
  }
  return keys;
}
