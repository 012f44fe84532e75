import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import { parseAuthorizedKey } from '../desired/authorized-key.js';
import { authorizedKeyLine, sshPublicKeyFixtures } from './ssh-key-fixtures.js';

test('generates one key of each OpenSSH type, each parsed back with its own type', (t) => {
  const fixtures = sshPublicKeyFixtures();
  t.deepEqual(
    fixtures.map((f) => parseAuthorizedKey(f.authorizedKey).type),
    ['ssh-rsa', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'ssh-ed25519'],
  );
  t.is(new Set(fixtures.map((f) => f.authorizedKey)).size, fixtures.length);
});

test('the OpenSSH encoding round-trips through node:crypto (the key, not just the header)', (t) => {
  // Node imports OpenSSH-free JWK; rebuild the key from our blob's fields and compare with the original.
  const { publicKey } = generateKeyPairSync('ed25519');
  const line = authorizedKeyLine('ed25519', publicKey, 'c');
  const blob = Buffer.from(line.split(' ')[1]!, 'base64');
  const raw = blob.subarray(blob.length - 32);
  const rebuilt = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
    format: 'jwk',
  });
  t.true(rebuilt.equals(publicKey));
});

test('RSA moduli with the top bit set get the mpint padding byte', (t) => {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const blob = Buffer.from(authorizedKeyLine('rsa', publicKey, 'c').split(' ')[1]!, 'base64');
  // string "ssh-rsa" (4+7), mpint e (4+3 for 65537), then mpint n: length 129 with a leading 0.
  const nLength = blob.readUInt32BE(4 + 7 + 4 + 3);
  t.is(nLength, 129);
  t.is(blob[4 + 7 + 4 + 3 + 4], 0);
});
