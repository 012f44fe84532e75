import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { Annotations } from '../../identity/node-metadata.js';
import { machineKeyOf, ownerKey, waitingMachineKeys } from './machine-keys.js';
import type { MachineResource } from './machine-object.js';

const NS = 'openshift-machine-api';
const machine = (name: string, nodeRef?: string): MachineResource => ({
  metadata: { name, namespace: NS },
  ...(nodeRef ? { status: { nodeRef: { name: nodeRef } } } : {}),
});
const node = (name: string, owner?: string): V1Node => ({
  metadata: { name, annotations: owner ? { [Annotations.machine]: owner } : {} },
});

test('a Machine’s key is namespace/name', (t) => {
  t.is(machineKeyOf(machine('win-a')), `${NS}/win-a`);
  t.is(machineKeyOf(undefined), undefined);
});

test('a Node’s owner: its machine annotation first, else the Machine whose nodeRef names it', (t) => {
  const machines = [machine('win-a', 'node-a'), machine('win-b')];
  t.is(ownerKey(node('node-a'), machines), `${NS}/win-a`);
  t.is(ownerKey(node('node-x', `${NS}/win-b`), machines), `${NS}/win-b`);
  t.is(ownerKey(node('byoh-1'), machines), undefined);
  t.is(ownerKey(undefined, machines), undefined);
});

test('the Machines among the names that waited for the budget: nodes’ owners and waiting replacements only', (t) => {
  const machines = [machine('win-a', 'node-a'), machine('win-b', 'node-b'), machine('win-c')];
  const nodes = [node('node-a'), node('node-b', `${NS}/win-b`), node('byoh-1')];
  t.deepEqual(
    waitingMachineKeys(['byoh-1', 'node-b', 'machine/win-c', 'gone', 'machine/gone'], machines, nodes),
    [`${NS}/win-b`, `${NS}/win-c`],
  );
  t.deepEqual(waitingMachineKeys([], machines, nodes), []);
});
