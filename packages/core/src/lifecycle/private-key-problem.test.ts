import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import { privateKeyProblem } from './private-key-problem.js';

const pair = (passphrase?: string): { privateKey: string; publicKey: string } =>
  generateKeyPairSync('ed25519', {
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: passphrase
      ? { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }
      : { type: 'pkcs8', format: 'pem' },
  });

test('an unencrypted private key is usable', (t) => {
  t.is(privateKeyProblem(pair().privateKey), undefined);
});

test('a public key, a passphrase-protected key and garbage each say why they cannot be used', (t) => {
  for (const bad of [pair().publicKey, pair('secret').privateKey, 'not a key']) {
    const problem = privateKeyProblem(bad);
    t.truthy(problem, bad.slice(0, 40));
    t.false(problem?.includes('secret') ?? true, 'no key material or passphrase in the message');
  }
});
