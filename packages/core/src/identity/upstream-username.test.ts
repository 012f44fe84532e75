import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import { decryptUpstreamUsername, encryptUpstreamUsername } from './upstream-username.js';

const pem = (): string =>
  generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const KEY = pem();

test('a username written as the Go WMCO writes it decrypts with the same private key', async (t) => {
  const annotation = await encryptUpstreamUsername('Administrator', KEY);
  t.true(annotation.startsWith('-----BEGIN ENCRYPTED DATA-----<wmcoMarker><wmcoMarker>'));
  t.true(annotation.endsWith('<wmcoMarker>-----END ENCRYPTED DATA-----'));
  t.false(annotation.includes('\n'), 'one line, as a JSON patch value');
  t.is(await decryptUpstreamUsername(annotation, KEY), 'Administrator');
});

test('another key, a modified message or a bad armour is refused', async (t) => {
  const annotation = await encryptUpstreamUsername('Administrator', KEY);
  await t.throwsAsync(decryptUpstreamUsername(annotation, pem()), { message: /does not decrypt/ });
  const lines = annotation.split('<wmcoMarker>');
  const body = lines[2] ?? '';
  const flipped = body.slice(0, 40) + (body[40] === 'A' ? 'B' : 'A') + body.slice(41);
  const tampered = [...lines.slice(0, 2), flipped, ...lines.slice(3)].join('<wmcoMarker>');
  await t.throwsAsync(decryptUpstreamUsername(tampered, KEY), { message: /checksum/ });
  await t.throwsAsync(decryptUpstreamUsername('wmco1:abc', KEY), { message: /armour block/ });
  await t.throwsAsync(decryptUpstreamUsername(annotation, ''), { message: /empty/ });
});

test('a message the Go WMCO wrote with golang.org/x/crypto/openpgp decrypts (upstream pkg/crypto test vector)', async (t) => {
  // The block and passphrase of upstream's TestBackwardCompatibility (pkg/crypto/crypto_test.go).
  const block = [
    '-----BEGIN ENCRYPTED DATA-----',
    '',
    'wx4EBwMIYL8KsG/HtgVg8+iNJjXElhvALQYrmnA+7HvS5gF6B/0fU33WYjzltKxb',
    'G9CDA2rN+SNPyM9X0uRaI8HCdhZivqvHxv0rlXlVnwdVwqpltv1DDjsl+roRLxG4',
    's1TgswA=',
    '=QPgT',
    '-----END ENCRYPTED DATA-----',
  ];
  t.is(await decryptUpstreamUsername(block.join('<wmcoMarker>'), 'test-passphrase'), 'Administrator');
  t.is(await decryptUpstreamUsername(block.join('\n'), 'test-passphrase'), 'Administrator');
  await t.throwsAsync(decryptUpstreamUsername(block.join('<wmcoMarker>'), 'another'), {
    message: /does not decrypt/,
  });
});
