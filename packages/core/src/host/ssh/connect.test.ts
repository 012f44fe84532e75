import test from 'ava';
import { createServer } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import { HostUnreachableError } from '../errors.js';
import { InMemoryHostKeyStore } from '../host-key-store.js';
import { SshWindowsHost } from './ssh-windows-host.js';

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('connecting retries with backoff and gives up at the deadline with HostUnreachableError', async (t) => {
  const logged: unknown[] = [];
  const host = new SshWindowsHost({
    host: '127.0.0.1',
    port: await closedPort(),
    username: 'Administrator',
    privateKey: generateKeyPairSync('ed25519', {
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey,
    hostKeys: new InMemoryHostKeyStore(),
    logger: { warn: () => undefined, debug: (_m, f) => logged.push(f?.['delay']) },
    retryInitialMs: 20,
    retryMaxMs: 80,
    connectDeadlineMs: 400,
  });
  const started = Date.now();
  const err = await t.throwsAsync(
    host.observe({ directories: [], files: [], services: [], envVars: [], firewallRules: [] }),
  );
  t.true(err instanceof HostUnreachableError, String(err));
  t.regex(err.message, /ECONNREFUSED/);
  t.true(Date.now() - started < 1500);
  t.deepEqual(logged.slice(0, 4), [20, 40, 80, 80], 'delays double up to the cap');
  await host.close();
});
