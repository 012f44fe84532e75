import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import ssh2, { type CipherAlgorithm } from 'ssh2';
import { InMemoryHostKeyStore } from '../host-key-store.js';
import { SSH_CIPHERS } from './ssh-options.js';
import { SshWindowsHost } from './ssh-windows-host.js';

const rsaPem = (): string =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;

/**
 * Connects the operator's SSH client to a server that accepts only `ciphers` and refuses every key; the
 * cipher the two negotiated (the client's first one the server has), or undefined when none matched.
 */
async function negotiated(ciphers?: CipherAlgorithm[]): Promise<string | undefined> {
  let chosen: string | undefined;
  const server = new ssh2.Server(
    { hostKeys: [rsaPem()], ...(ciphers ? { algorithms: { cipher: ciphers } } : {}) },
    (client) => {
      client.on('handshake', (n) => (chosen = n.cs.cipher));
      client.on('authentication', (ctx) => ctx.reject());
      client.on('error', () => undefined);
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const host = new SshWindowsHost({
    host: '127.0.0.1',
    port: (server.address() as { port: number }).port,
    username: 'Administrator',
    privateKey: rsaPem(),
    hostKeys: new InMemoryHostKeyStore(),
    authRetryMs: 0,
    connectDeadlineMs: 300,
    retryInitialMs: 100,
  });
  await host
    .observe({ directories: [], files: [], services: [], envVars: [], firewallRules: [] })
    .catch(() => undefined);
  await host.close();
  server.close();
  return chosen;
}

test('the operator offers its cipher list in its order: AES-GCM first (the fastest per CPU second here)', async (t) => {
  t.deepEqual(SSH_CIPHERS.slice(0, 3), [
    'aes128-gcm@openssh.com',
    'aes256-gcm@openssh.com',
    'chacha20-poly1305@openssh.com',
  ]);
  t.is(await negotiated(), 'aes128-gcm@openssh.com');
  // ssh2's own default would pick aes192-ctr here (it lists CTR before chacha20 on x86).
  t.is(await negotiated(['aes192-ctr', 'chacha20-poly1305@openssh.com']), 'chacha20-poly1305@openssh.com');
  t.is(await negotiated(['aes256-ctr']), 'aes256-ctr', 'CTR stays offered for servers without GCM');
  t.is(await negotiated(['aes128-cbc']), undefined, 'CBC is not offered');
});
