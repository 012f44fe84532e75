import test from 'ava';
import { InMemoryHostKeyStore } from '../../host/host-key-store.js';
import { silentLogger } from '../../kube/logger.js';
import { MachinePins } from './machine-pins.js';
import { windowsMachine, type MachineResource } from './machine-object.js';

const KEY = { type: 'ssh-ed25519', base64: 'AAAA' };

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
  await store.pin('10.0.0.7:2222', KEY);
  const list: MachineResource[] = [];
  return { store, list, pins: new MachinePins(store, () => list, silentLogger) };
}

test("a Machine's pins go when its deletion starts, before its address can be reused", async (t) => {
  const { store, list, pins } = await setup();
  list.push(machine('win-a', '10.0.0.7'));
  await pins.seen('openshift-machine-api/win-a', windowsMachine(list[0]!));
  t.deepEqual(await store.get('10.0.0.7:2222'), KEY, 'a live Machine keeps its pin');
  list[0] = machine('win-a', '10.0.0.7', true);
  await pins.seen('openshift-machine-api/win-a', windowsMachine(list[0]));
  t.is(await store.get('10.0.0.7:2222'), undefined);
});

test('a deleted Machine seen only alive loses its pins when it is gone', async (t) => {
  const { store, list, pins } = await setup();
  list.push(machine('win-a', '10.0.0.7'));
  await pins.seen('openshift-machine-api/win-a', windowsMachine(list[0]!));
  list.pop();
  await pins.gone('openshift-machine-api/win-a');
  t.is(await store.get('10.0.0.7:2222'), undefined);
  await pins.gone('openshift-machine-api/never-seen');
  t.pass('a Machine never seen has no address to forget');
});

test('a pin another live Machine at the same address may own stays', async (t) => {
  const { store, list, pins } = await setup();
  list.push(machine('win-a', '10.0.0.7'));
  await pins.seen('openshift-machine-api/win-a', windowsMachine(list[0]!));
  list[0] = machine('win-b', '10.0.0.7');
  await pins.gone('openshift-machine-api/win-a');
  t.deepEqual(await store.get('10.0.0.7:2222'), KEY, "win-b's own pin");
});
