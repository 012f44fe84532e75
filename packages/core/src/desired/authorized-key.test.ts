import { createHash } from 'node:crypto';
import test from 'ava';
import { sshPublicKeyFixtures } from '../testing/ssh-key-fixtures.js';
import { parseAuthorizedKey, publicKeyHash } from './authorized-key.js';

const TYPES: Record<string, string> = {
  rsa: 'ssh-rsa',
  'ecdsa-p256': 'ecdsa-sha2-nistp256',
  'ecdsa-p384': 'ecdsa-sha2-nistp384',
  'ecdsa-p521': 'ecdsa-sha2-nistp521',
  ed25519: 'ssh-ed25519',
};

for (const fixture of sshPublicKeyFixtures()) {
  test(`parses a ${fixture.kind} key and drops its comment`, (t) => {
    const key = parseAuthorizedKey(`  ${fixture.authorizedKey}  \n`);
    const [type = '', base64 = ''] = fixture.authorizedKey.split(' ');
    t.is(key.type, TYPES[fixture.kind] ?? '(unknown kind)');
    t.is(key.type, type);
    t.is(key.base64, base64);
    t.is(key.line, `${type} ${base64}`);
    t.false(key.line.includes(fixture.comment));
  });
}

test('a key without a comment parses the same', (t) => {
  const [first] = sshPublicKeyFixtures();
  const bare = first!.authorizedKey.split(' ').slice(0, 2).join(' ');
  t.deepEqual(parseAuthorizedKey(bare), parseAuthorizedKey(first!.authorizedKey));
});

test('a comment with spaces is dropped whole', (t) => {
  const [, second] = sshPublicKeyFixtures();
  const bare = second!.authorizedKey.split(' ').slice(0, 2).join(' ');
  t.is(parseAuthorizedKey(`${bare} my laptop key`).line, bare);
});

test('refuses a type that does not match the key blob', (t) => {
  const ed = sshPublicKeyFixtures().find((f) => f.kind === 'ed25519')!;
  const base64 = ed.authorizedKey.split(' ')[1]!;
  t.throws(() => parseAuthorizedKey(`ssh-rsa ${base64}`), {
    message: "public key data is not a 'ssh-rsa' key",
  });
});

const garbage: readonly [string, string, RegExp][] = [
  ['empty text', '', /must look like "<type> <base64> \[comment\]"/],
  ['a type alone', 'ssh-ed25519', /must look like/],
  ['DSA', 'ssh-dss AAAAB3NzaC1kc3MAAACBAP', /unsupported public key type 'ssh-dss'/],
  ['an unknown type', 'ssh-foo AAAA', /unsupported public key type 'ssh-foo'/],
  ['a private key', '-----BEGIN OPENSSH PRIVATE KEY-----', /unsupported public key type/],
  ['non-base64 data', "ssh-ed25519 not'base64!", /not base64/],
  ['a truncated blob', 'ssh-ed25519 AAAA', /not a 'ssh-ed25519' key/],
  ['a blob claiming a huge name', 'ssh-ed25519 /////w==', /not a 'ssh-ed25519' key/],
];

for (const [what, text, message] of garbage) {
  test(`refuses ${what} with a clear error`, (t) => {
    t.throws(() => parseAuthorizedKey(text), { instanceOf: Error, message });
  });
}

test('publicKeyHash is the hex SHA-256 of "<type> <base64>" (comment excluded)', (t) => {
  const [first] = sshPublicKeyFixtures();
  const key = parseAuthorizedKey(first!.authorizedKey);
  const expected = createHash('sha256')
    .update(first!.authorizedKey.split(' ').slice(0, 2).join(' '))
    .digest('hex');
  t.is(publicKeyHash(key), expected);
  t.regex(publicKeyHash(key), /^[0-9a-f]{64}$/);
  t.is(publicKeyHash(parseAuthorizedKey(`${key.line} another comment`)), expected);
});

test('publicKeyHash differs between keys', (t) => {
  const hashes = sshPublicKeyFixtures().map((f) => publicKeyHash(parseAuthorizedKey(f.authorizedKey)));
  t.is(new Set(hashes).size, hashes.length);
});
