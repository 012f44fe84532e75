import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { InMemoryHostKeyStore } from '../../host/host-key-store.js';
import { silentLogger } from '../../kube/logger.js';
import { Annotations } from '../../identity/node-metadata.js';
import { EntryPins } from './entry-pins.js';

const KEY = { type: 'ssh-ed25519', base64: 'AAAA' };

function node(name: string, ip: string, joinedAs: string): V1Node {
  return {
    metadata: { name, annotations: { [Annotations.instanceAddress]: joinedAs } },
    status: { addresses: [{ type: 'InternalIP', address: ip }] },
  };
}

async function world(pinned: readonly string[]): Promise<{
  store: InMemoryHostKeyStore;
  view: { entries: Record<string, string>; nodes: V1Node[] };
  pins: EntryPins;
}> {
  const store = new InMemoryHostKeyStore();
  for (const k of pinned) await store.pin(k, KEY);
  const view = { entries: {} as Record<string, string>, nodes: [] as V1Node[] };
  const pins = new EntryPins(
    store,
    { instances: () => view.entries, windowsNodes: () => view.nodes },
    silentLogger,
  );
  return { store, view, pins };
}

test('a removed entry without a Node loses the pins of its name and of the address it resolved to', async (t) => {
  const { store, pins } = await world(['win.example', '10.0.0.7', '10.0.0.8']);
  await pins.recording(() => Promise.resolve(['10.0.0.7']))('win.example');
  await pins.entryGone('win.example');
  t.is(await store.get('win.example'), undefined);
  t.is(await store.get('10.0.0.7'), undefined);
  t.deepEqual(await store.get('10.0.0.8'), KEY, "another host's pin stays");
});

test("a removed entry's pins stay until its Node's removal has finished", async (t) => {
  const { store, view, pins } = await world(['10.0.0.7:2222']);
  view.nodes = [node('win-a', '10.0.0.7', '10.0.0.7')];
  await pins.entryGone('10.0.0.7');
  t.deepEqual(await store.get('10.0.0.7:2222'), KEY, 'the removal still connects under the pin');
  const removed = view.nodes.pop()!;
  await pins.nodeRemoved(removed);
  t.is(await store.get('10.0.0.7:2222'), undefined);
});

test('an address or name a current entry uses keeps its pin', async (t) => {
  const { store, view, pins } = await world(['win.example', '10.0.0.7', 'old.example']);
  view.entries = { 'win.example': 'username=Administrator' };
  await pins.recording(() => Promise.resolve(['10.0.0.7']))('win.example');
  // An old name of the same host was removed; its Node (joined as the old name) was removed.
  await pins.nodeRemoved(node('win-a', '10.0.0.7', 'old.example'));
  t.is(await store.get('old.example'), undefined);
  t.deepEqual(await store.get('10.0.0.7'), KEY, 'the current entry resolves to it');
  await pins.entryGone('win.example');
  t.deepEqual(await store.get('win.example'), KEY, 'still listed (a stale event)');
});
