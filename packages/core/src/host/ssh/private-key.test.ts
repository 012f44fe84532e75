import { openSshEd25519 } from '../../testing/ssh-key-fixtures.js';
import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import ssh2 from 'ssh2';
import { PrivateKeyError } from '../errors.js';
import type { HostLogger } from '../host-logger.js';
import { loadPrivateKey } from './private-key.js';

function recorder(): HostLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (m) => warnings.push(m), debug: () => undefined };
}

const pem = (type: 'rsa' | 'ec' | 'ed25519', encoding: 'pkcs1' | 'sec1' | 'pkcs8', bits = 2048): string =>
  generateKeyPairSync(
    type as 'rsa',
    {
      modulusLength: bits,
      namedCurve: 'prime256v1',
      privateKeyEncoding: { type: encoding as 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    } as never,
  ).privateKey;

const cases: [string, () => string, string][] = [
  ['RSA PKCS#1 PEM', () => pem('rsa', 'pkcs1'), 'ssh-rsa'],
  ['RSA PKCS#8 PEM', () => pem('rsa', 'pkcs8'), 'ssh-rsa'],
  ['ECDSA SEC1 PEM', () => pem('ec', 'sec1'), 'ecdsa-sha2-nistp256'],
  ['ECDSA PKCS#8 PEM', () => pem('ec', 'pkcs8'), 'ecdsa-sha2-nistp256'],
  ['Ed25519 PKCS#8 PEM', () => pem('ed25519', 'pkcs8'), 'ssh-ed25519'],
  ['Ed25519 OpenSSH', () => openSshEd25519().private, 'ssh-ed25519'],
  ['RSA OpenSSH', () => ssh2.utils.generateKeyPairSync('rsa', { bits: 2048 }).private, 'ssh-rsa'],
  [
    'ECDSA OpenSSH',
    () => ssh2.utils.generateKeyPairSync('ecdsa', { bits: 384 }).private,
    'ecdsa-sha2-nistp384',
  ],
];

for (const [name, make, type] of cases) {
  test(`loads ${name} without warnings`, (t) => {
    const log = recorder();
    const key = loadPrivateKey(make(), log);
    t.is(key.type, type);
    t.regex(key.fingerprint, /^SHA256:[A-Za-z0-9+/]{43}$/);
    t.deepEqual(log.warnings, []);
    // The rewritten key must still be usable for signing.
    const parsed = ssh2.utils.parseKey(key.pem);
    if (parsed instanceof Error || Array.isArray(parsed)) return t.fail(String(parsed));
    const data = Buffer.from('challenge');
    t.true(parsed.verify(data, parsed.sign(data)));
  });
}

test('an RSA key under 2048 bits works but warns', (t) => {
  const log = recorder();
  t.is(loadPrivateKey(pem('rsa', 'pkcs1', 1024), log).type, 'ssh-rsa');
  t.deepEqual(log.warnings, ['the SSH private key is RSA with 1024 bits; use at least 2048']);
});

test('a DSA key is refused: DSA signs only with SHA-1', (t) => {
  const dsa = readFileSync(new URL('../../../testdata/dsa-1024.openssh.key', import.meta.url));
  t.throws(() => loadPrivateKey(dsa, recorder()), {
    instanceOf: PrivateKeyError,
    message: /DSA keys are not supported \(SHA256:.*\)/,
  });
});

test('garbage and public keys are refused with PrivateKeyError', (t) => {
  t.throws(() => loadPrivateKey('not a key', recorder()), { instanceOf: PrivateKeyError });
  const pub = openSshEd25519().public;
  t.throws(() => loadPrivateKey(pub, recorder()), { instanceOf: PrivateKeyError, message: /public key/ });
});

test('the key loaded again (every connection loads it) is parsed once; another key, or the same as a Buffer, is its own', (t) => {
  const a = pem('ed25519', 'pkcs8');
  const b = pem('ed25519', 'pkcs8');
  const first = loadPrivateKey(a, recorder());
  t.is(loadPrivateKey(a, recorder()), first, 'the same parsed key');
  t.is(loadPrivateKey(Buffer.from(a), recorder()), first, 'the same text as a Buffer');
  const other = loadPrivateKey(b, recorder());
  t.not(other, first);
  t.not(other.fingerprint, first.fingerprint);
  t.is(loadPrivateKey(a, recorder()).fingerprint, first.fingerprint);
  t.throws(() => loadPrivateKey('not a key', recorder()), { instanceOf: PrivateKeyError });
});
