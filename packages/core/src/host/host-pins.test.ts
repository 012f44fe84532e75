import test from 'ava';
import { InMemoryHostKeyStore } from './host-key-store.js';
import { forgetHostPins, isPinOf } from './host-pins.js';

const KEY = { type: 'ssh-ed25519', base64: 'AAAA' };

test('a pin belongs to its host on any port, never to a host whose name merely starts the same', (t) => {
  t.true(isPinOf('10.0.0.1', '10.0.0.1'));
  t.true(isPinOf('10.0.0.1:2222', '10.0.0.1'));
  t.true(isPinOf('win.example:22', 'win.example'));
  t.false(isPinOf('10.0.0.12', '10.0.0.1'));
  t.false(isPinOf('10.0.0.1.nip.io', '10.0.0.1'));
  t.false(isPinOf('10.0.0.1:x', '10.0.0.1'));
  t.false(isPinOf('10.0.0.1', ''));
});

test('forgetting an instance removes the pins of its name and address, and only those', async (t) => {
  const store = new InMemoryHostKeyStore();
  for (const k of ['win.example', '10.0.0.1:2222', '10.0.0.12', 'other.example']) await store.pin(k, KEY);
  const gone = await forgetHostPins(store, ['win.example', '10.0.0.1', undefined, '']);
  t.deepEqual([...gone].sort(), ['10.0.0.1:2222', 'win.example']);
  t.is(await store.get('win.example'), undefined);
  t.is(await store.get('10.0.0.1:2222'), undefined);
  t.deepEqual(await store.get('10.0.0.12'), KEY);
  t.deepEqual(await store.get('other.example'), KEY);
  t.deepEqual(await forgetHostPins(store, [undefined]), [], 'no host: nothing asked of the store');
});
