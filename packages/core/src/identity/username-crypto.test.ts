import test from 'ava';
import { decryptUsername, encryptUsername } from './username-crypto.js';

const KEY_A = '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n';
const KEY_B = '-----BEGIN OPENSSH PRIVATE KEY-----\nBBBB\n-----END OPENSSH PRIVATE KEY-----\n';

test('round trips usernames (upstream vectors: core, Administrator_01, empty)', (t) => {
  for (const u of ['core', 'Administrator_01', ''])
    t.is(decryptUsername(encryptUsername(u, KEY_A), KEY_A), u);
});

test('each encryption differs (random IV) and hides the name', (t) => {
  const a = encryptUsername('Administrator', KEY_A);
  const b = encryptUsername('Administrator', KEY_A);
  t.not(a, b);
  t.false(a.includes('Administrator'));
  t.regex(a, /^wmco1:[A-Za-z0-9+/=]+$/);
});

test('a wrong key, a tampered value, garbage and an empty key are errors', (t) => {
  const v = encryptUsername('core', KEY_A);
  t.throws(() => decryptUsername(v, KEY_B), { message: /does not decrypt/ });
  const raw = Buffer.from(v.slice(6), 'base64');
  raw[raw.length - 1]! ^= 1;
  t.throws(() => decryptUsername(`wmco1:${raw.toString('base64')}`, KEY_A), { message: /does not decrypt/ });
  t.throws(() => decryptUsername('HELLO', KEY_A), { message: /not in the wmco1 format/ });
  t.throws(() => decryptUsername('wmco1:AAAA', KEY_A), { message: /truncated/ });
  t.throws(() => encryptUsername('core', ''), { message: /empty private key/ });
});

test('a value decrypted once is still refused under another key, and a changed value is checked again', (t) => {
  const v = encryptUsername('core', KEY_A);
  t.is(decryptUsername(v, KEY_A), 'core');
  t.is(decryptUsername(v, KEY_A), 'core', 'the second time from memory');
  t.throws(() => decryptUsername(v, KEY_B), { message: /does not decrypt/ });
  t.is(decryptUsername(v, KEY_A), 'core');
  const raw = Buffer.from(v.slice(6), 'base64');
  raw[14]! ^= 1;
  t.throws(() => decryptUsername(`wmco1:${raw.toString('base64')}`, KEY_A), { message: /does not decrypt/ });
});
