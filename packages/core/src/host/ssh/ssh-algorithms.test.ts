import { openSshEd25519 } from '../../testing/ssh-key-fixtures.js';
import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import ssh2, { type ParsedKey } from 'ssh2';
import { HostUnreachableError } from '../errors.js';
import { InMemoryHostKeyStore } from '../host-key-store.js';
import { SSH_ALGORITHMS, sha2OnlyKey } from './ssh-algorithms.js';
import { SshWindowsHost } from './ssh-windows-host.js';

const { Server, utils } = ssh2;
const empty = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };

function parse(pem: string): ParsedKey {
  const k = utils.parseKey(pem);
  if (k instanceof Error) throw k;
  return Array.isArray(k) ? (k[0] as ParsedKey) : k;
}

const rsaPem = (): string =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;

test('the offered lists hold nothing SHA-1, MD5 or DSA', (t) => {
  const all = [...SSH_ALGORITHMS.kex, ...SSH_ALGORITHMS.serverHostKey, ...SSH_ALGORITHMS.hmac];
  for (const name of all) t.false(/sha1|md5|dss|^ssh-rsa$/.test(name), name);
  t.false((SSH_ALGORITHMS.serverHostKey as readonly string[]).includes('ssh-rsa'));
  t.false((SSH_ALGORITHMS.hmac as readonly string[]).includes('hmac-sha1'));
});

test('an RSA key signs with SHA-2 and refuses an SHA-1 signature', (t) => {
  const key = parse(rsaPem());
  const wrapped = sha2OnlyKey(key);
  const data = Buffer.from('session data');
  const sig = wrapped.sign(data, 'sha256');
  t.true(Buffer.isBuffer(sig));
  t.true(key.verify(data, sig, 'sha256'));
  t.true((wrapped.sign(data, 'sha1') as unknown) instanceof Error);
  t.true((wrapped.sign(data) as unknown) instanceof Error);
  t.true(wrapped.isPrivateKey(), 'everything else is the key itself');
  const ed = parse(openSshEd25519().private);
  t.true(Buffer.isBuffer(sha2OnlyKey(ed).sign(data)), 'other key types are unchanged');
});

/** An ssh2 server offering only the given algorithms and accepting any public key. */
async function server(
  algorithms: ssh2.ServerConfig['algorithms'],
  signedWith: string[] = [],
): Promise<ssh2.Server> {
  const s = new Server({ hostKeys: [rsaPem()], ...(algorithms ? { algorithms } : {}) }, (conn) => {
    conn.on('authentication', (ctx) => {
      if (ctx.method !== 'publickey') return ctx.reject();
      if (ctx.signature) signedWith.push(`${ctx.key.algo}/${ctx.hashAlgo ?? ''}`);
      ctx.accept();
    });
    conn.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return s;
}

async function connectTo(s: ssh2.Server, privateKey: string): Promise<unknown> {
  const host = new SshWindowsHost({
    host: '127.0.0.1',
    port: (s.address() as { port: number }).port,
    username: 'Administrator',
    privateKey,
    hostKeys: new InMemoryHostKeyStore(),
    retryInitialMs: 20,
    connectDeadlineMs: 300,
    authRetryMs: 0,
  });
  try {
    return await host.observe(empty).catch((e: unknown) => e);
  } finally {
    await host.close();
  }
}

const weakServers: [string, ssh2.ServerConfig['algorithms']][] = [
  // AES-GCM carries its own MAC: only a cipher that needs one negotiates the MAC list.
  ['hmac-sha1 only', { cipher: ['aes128-ctr'], hmac: ['hmac-sha1'] }],
  ['ssh-rsa (SHA-1) host key signatures only', { serverHostKey: ['ssh-rsa'] }],
  ['SHA-1 key exchange only', { kex: ['diffie-hellman-group14-sha1'] }],
];
for (const [name, algorithms] of weakServers) {
  test(`a server offering ${name} is refused`, async (t) => {
    const s = await server(algorithms);
    t.teardown(() => s.close());
    const err = await connectTo(s, openSshEd25519().private);
    t.true(err instanceof HostUnreachableError, String(err));
    t.regex(String(err), /no matching|handshake failed/i);
  });
}

test('an RSA user key authenticates with an rsa-sha2 signature', async (t) => {
  const signedWith: string[] = [];
  const s = await server(undefined, signedWith);
  t.teardown(() => s.close());
  // The server runs no host module: the call fails after authentication, which is all this test needs.
  await connectTo(s, rsaPem());
  // ssh2's server names the key type (ssh-rsa) and the signature's hash: SHA-256, i.e. rsa-sha2-256.
  t.deepEqual(signedWith, ['ssh-rsa/sha256']);
});
