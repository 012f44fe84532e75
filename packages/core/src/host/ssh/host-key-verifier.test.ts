import test from 'ava';
import { randomBytes } from 'node:crypto';
import { InMemoryHostKeyStore } from '../host-key-store.js';
import { pinningHostVerifier, type HostKeyCheck } from './host-key-verifier.js';

/** The verifier compares keys as bytes; any blob stands for one. */
function hostKey(): Buffer {
  return randomBytes(51);
}

/** One verification of `key` for 10.0.0.5: what the verifier answered. */
function verify(store: InMemoryHostKeyStore, check: HostKeyCheck, key: Buffer): Promise<boolean> {
  return new Promise((resolve) => pinningHostVerifier(store, '10.0.0.5', check)(key, resolve));
}

test('the first key is pinned and accepted; another key is refused and recorded', async (t) => {
  const store = new InMemoryHostKeyStore();
  const check: HostKeyCheck = {};
  const answers = [await verify(store, check, hostKey()), await verify(store, check, hostKey())];
  t.deepEqual(answers, [true, false]);
  t.regex(check.mismatch?.presented ?? '', /^SHA256:/);
});

test('a verify callback that throws (ssh2 after its connection was torn down) is no unhandled rejection', async (t) => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  t.teardown(() => process.off('unhandledRejection', onUnhandled));
  let called = 0;
  pinningHostVerifier(
    new InMemoryHostKeyStore(),
    '10.0.0.5',
    {},
  )(hostKey(), () => {
    called++;
    throw new TypeError('protocol._destruct is not a function');
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.is(called, 1);
  t.deepEqual(unhandled, []);
});
