import test from 'ava';
import { InMemoryHostKeyStore } from './host-key-store.js';
import { NamePinnedHostKeyStore } from './name-pinned-host-key-store.js';

const K1 = { type: 'ssh-ed25519', base64: 'AAAA1' };
const K2 = { type: 'ssh-ed25519', base64: 'AAAA2' };

test('the first use pins the key under the name and the address', async (t) => {
  const inner = new InMemoryHostKeyStore();
  const store = new NamePinnedHostKeyStore(inner, 'win-a.example');
  t.is(await store.get('10.0.0.5'), undefined);
  await store.pin('10.0.0.5', K1);
  t.deepEqual(await inner.get('win-a.example'), K1);
  t.deepEqual(await inner.get('10.0.0.5'), K1);
});

test('a name that moves to a new address still answers with the pinned key (a mismatch, not a first use)', async (t) => {
  const inner = new InMemoryHostKeyStore();
  await new NamePinnedHostKeyStore(inner, 'win-a.example').pin('10.0.0.5', K1);
  // The name now resolves to 10.0.0.9, never seen before: the name's pin still applies.
  t.deepEqual(await new NamePinnedHostKeyStore(inner, 'win-a.example').get('10.0.0.9'), K1);
  // ...and the address's own pin, if any, does not override the name's.
  await inner.pin('10.0.0.9', K2);
  t.deepEqual(await new NamePinnedHostKeyStore(inner, 'win-a.example').get('10.0.0.9'), K1);
});

test('a host pinned only by address gets the name pinned to the same key', async (t) => {
  const inner = new InMemoryHostKeyStore();
  await inner.pin('10.0.0.5', K1);
  t.deepEqual(await new NamePinnedHostKeyStore(inner, 'win-a.example').get('10.0.0.5'), K1);
  t.deepEqual(await inner.get('win-a.example'), K1);
});

test('ports are kept apart, and forget drops both pins', async (t) => {
  const inner = new InMemoryHostKeyStore();
  const store = new NamePinnedHostKeyStore(inner, 'win-a.example');
  await store.pin('127.0.0.5:2222', K1);
  t.deepEqual(await inner.get('win-a.example:2222'), K1);
  t.is(await inner.get('win-a.example'), undefined);
  await store.forget('127.0.0.5:2222');
  t.is(await inner.get('win-a.example:2222'), undefined);
  t.is(await inner.get('127.0.0.5:2222'), undefined);
});
