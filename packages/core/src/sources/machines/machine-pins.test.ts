import test from 'ava';
import { InMemoryHostKeyStore } from '../../host/host-key-store.js';
import { silentLogger } from '../../kube/logger.js';
import { MachinePins } from './machine-pins.js';
import { windowsMachine, type MachineResource } from './machine-object.js';

const OLD = { type: 'ssh-ed25519', base64: 'OLD' };
const NEW = { type: 'ssh-ed25519', base64: 'NEW' };

function machine(name: string, ip: string, deleting = false): MachineResource {
  return {
    metadata: {
      name,
      namespace: 'openshift-machine-api',
      uid: `uid-${name}`,
      labels: { 'machine.openshift.io/os-id': 'Windows' },
      ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    status: { phase: 'Running', addresses: [{ type: 'InternalIP', address: ip }] },
  };
}

async function setup(): Promise<{ store: InMemoryHostKeyStore; list: MachineResource[]; pins: MachinePins }> {
  const store = new InMemoryHostKeyStore();
  await store.pin('10.0.0.7', OLD);
  const list: MachineResource[] = [];
  return { store, list, pins: new MachinePins(store, () => list, silentLogger) };
}

const KEY_A = 'openshift-machine-api/win-a';

test("a Machine's pin goes when its deletion starts, before its address can be reused", async (t) => {
  const { store, list, pins } = await setup();
  list.push(machine('win-a', '10.0.0.7'));
  await pins.seen(KEY_A, windowsMachine(list[0]!));
  t.deepEqual(await store.get('10.0.0.7'), OLD, 'a live Machine keeps its pin');
  list[0] = machine('win-a', '10.0.0.7', true);
  await pins.deleted(list[0], false);
  t.is(await store.get('10.0.0.7'), undefined);
});

test('a Machine gone without its deletion seen loses its pin, even with a new Machine at the address', async (t) => {
  const { store, list, pins } = await setup();
  list.push(machine('win-a', '10.0.0.7'));
  await pins.seen(KEY_A, windowsMachine(list[0]!));
  // The replacement, at the same address, is in the cache before the old Machine's deletion is handled.
  list[0] = machine('win-b', '10.0.0.7');
  await pins.deleted(machine('win-a', '10.0.0.7', true), true);
  t.is(await store.get('10.0.0.7'), undefined, "the old Machine's key cannot refuse the new one");
});

test('a key the new Machine at the address pinned is kept', async (t) => {
  const { store, list, pins } = await setup();
  list.push(machine('win-a', '10.0.0.7'));
  await pins.seen(KEY_A, windowsMachine(list[0]!));
  list[0] = machine('win-b', '10.0.0.7');
  await store.forget('10.0.0.7');
  await store.pin('10.0.0.7', NEW);
  await pins.deleted(machine('win-a', '10.0.0.7', true), true);
  t.deepEqual(await store.get('10.0.0.7'), NEW);
});

test('a Machine never seen pinned: its address keeps a pin another live Machine there may own', async (t) => {
  const store = new InMemoryHostKeyStore();
  const list = [machine('win-a', '10.0.0.7')];
  const pins = new MachinePins(store, () => list, silentLogger);
  await pins.seen(KEY_A, windowsMachine(list[0]!));
  await store.pin('10.0.0.7', NEW);
  list[0] = machine('win-b', '10.0.0.7');
  await pins.deleted(machine('win-a', '10.0.0.7', true), true);
  t.deepEqual(await store.get('10.0.0.7'), NEW);
  // Never seen at all (deleted while the operator was away from it): its address, if no one else's, is freed.
  await pins.deleted(machine('win-c', '10.0.0.9', true), true);
  list.length = 0;
  await pins.deleted(machine('win-d', '10.0.0.7', true), true);
  t.is(await store.get('10.0.0.7'), undefined);
});
