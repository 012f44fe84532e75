import test from 'ava';
import type { CustomObjectsApi, V1Node } from '@kubernetes/client-node';
import { MemoryEventRecorder } from '../../kube/event-recorder.js';
import { silentLogger } from '../../kube/logger.js';
import { DisruptionBudget } from '../../lifecycle/disruption-budget.js';
import { windowsMachine, type MachineResource } from './machine-object.js';
import { BudgetedReplacements } from './machine-replacements.js';

const NS = 'openshift-machine-api';

function machine(name: string, extra: { deleting?: boolean; phase?: string } = {}): MachineResource {
  return {
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${name}`,
      labels: { 'machine.openshift.io/os-id': 'Windows' },
      ownerReferences: [{ kind: 'MachineSet', name: 'win', controller: true }],
      ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    status: {
      phase: extra.phase ?? 'Running',
      nodeRef: { name },
      addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
    },
  };
}

function node(name: string, ready = true): V1Node {
  return {
    metadata: {
      name,
      annotations: {
        'windowsmachineconfig.openshift.io/machine': `${NS}/${name}`,
        'windowsmachineconfig.openshift.io/version': '1.0.0',
      },
    },
    status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

/** Three Machines of MachineSet `win` (3 replicas) with Ready nodes, plus whatever nodes `extra` adds. */
function world(max = 1, extra: V1Node[] = []) {
  const machines = ['win-a', 'win-b', 'win-c'].map((n) => machine(n));
  const nodes = [...machines.map((m) => node(m.metadata?.name ?? '')), ...extra];
  const deleted: string[] = [];
  const custom = {
    getNamespacedCustomObject: () => Promise.resolve({ spec: { replicas: 3 } }),
    deleteNamespacedCustomObject: (r: { name: string }) => {
      deleted.push(r.name);
      return Promise.resolve({});
    },
  } as unknown as CustomObjectsApi;
  const budget = new DisruptionBudget({ kind: 'count', count: max }, () => nodes);
  const events = new MemoryEventRecorder();
  const replacements = new BudgetedReplacements({
    custom,
    events,
    logger: silentLogger,
    machines: () => machines,
    windowsNodes: () => nodes,
    budget,
    retryMs: 10,
  });
  return { machines, nodes, deleted, budget, events, replacements };
}

const m = (w: ReturnType<typeof world>, i: number) => windowsMachine(w.machines[i] as MachineResource);

test('maxUnavailable 1: one Machine replaced at a time, the next only once its MachineSet has every replica back', async (t) => {
  const w = world();
  t.is(await w.replacements.replace(m(w, 0), 'new key'), undefined);
  t.deepEqual(w.deleted, ['win-a']);
  // machine-api marks it deleting; its Node is still Ready: the replacement holds the one slot.
  w.machines[0] = machine('win-a', { deleting: true });
  t.deepEqual(await w.replacements.replace(m(w, 1), 'new key'), { requeueAfterMs: 10 });
  t.deepEqual(w.deleted, ['win-a']);
  // The old Machine and its Node are gone, the new one provisions: still held.
  w.machines.shift();
  w.nodes.shift();
  w.machines.push(machine('win-d', { phase: 'Provisioned' }));
  t.false(w.budget.tryAcquire('win-b').granted);
  t.deepEqual(w.replacements.unavailable(), ['win-d']);
  // Its node joins and is Ready: the set has its three replicas back, the slot is free.
  w.machines[2] = machine('win-d');
  w.nodes.push(node('win-d'));
  t.deepEqual(w.replacements.unavailable(), []);
  t.is(await w.replacements.replace(m(w, 0), 'new key'), undefined);
  t.deepEqual(w.deleted, ['win-a', 'win-b']);
  const restricted = w.events.events.filter((e) => e.reason === 'MachineDeletionRestricted');
  t.is(restricted.length, 1);
  t.regex(restricted[0]?.message ?? '', /at most 1 Windows node\(s\) unavailable at once, now win-a/);
});

test('maxUnavailable 2: a replacement holds one slot throughout (old Machine deleting, replica not created, new one joining)', async (t) => {
  const w = world(2);
  await w.replacements.replace(m(w, 0), 'new key');
  w.machines[0] = machine('win-a', { deleting: true });
  t.deepEqual(w.replacements.unavailable(), ['win-a']);
  w.machines.shift();
  w.nodes.shift();
  t.deepEqual(w.replacements.unavailable(), ['machineset/win/replica-0'], 'a replica not created yet');
  w.machines.push({ ...machine('win-d'), status: { phase: 'Provisioning' } });
  t.deepEqual(w.replacements.unavailable(), ['machine/win-d'], 'a Machine without a node yet');
  t.true(w.budget.tryAcquire('win-b').granted, 'a second slot is left');
  t.false(w.budget.tryAcquire('win-c').granted, 'never a third');
});

test('the budget is shared: a BYOH node out of service blocks a replacement, and a replacement blocks an upgrade', async (t) => {
  const w = world(1, [node('byoh-a', false)]);
  t.deepEqual(await w.replacements.replace(m(w, 0), 'new key'), { requeueAfterMs: 10 });
  t.deepEqual(w.deleted, []);
  w.nodes.pop();
  t.is(await w.replacements.replace(m(w, 0), 'new key'), undefined);
  t.false(w.budget.tryAcquire('win-b').granted, 'an upgrade of another node waits');
  t.true(w.budget.tryAcquire('win-a').granted, 'the node being replaced is already out');
});

test('a failed deletion gives the slot back', async (t) => {
  const w = world();
  const failing = new BudgetedReplacements({
    custom: {
      getNamespacedCustomObject: () => Promise.resolve({ spec: { replicas: 3 } }),
      deleteNamespacedCustomObject: () => Promise.reject(new Error('forbidden')),
    } as unknown as CustomObjectsApi,
    events: w.events,
    logger: silentLogger,
    machines: () => w.machines,
    windowsNodes: () => w.nodes,
    budget: w.budget,
    retryMs: 10,
  });
  await t.throwsAsync(failing.replace(m(w, 0), 'new key'), { message: 'forbidden' });
  t.deepEqual(failing.unavailable(), []);
  t.true(w.budget.tryAcquire('win-b').granted);
});
