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

function hostAt(port: number, signal: AbortSignal): SshWindowsHost {
  return new SshWindowsHost({
    host: '127.0.0.1',
    port,
    username: 'Administrator',
    privateKey: generateKeyPairSync('ed25519', {
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }).privateKey,
    hostKeys: new InMemoryHostKeyStore(),
    retryInitialMs: 20,
    retryMaxMs: 100,
    connectDeadlineMs: 60_000,
    readyTimeoutMs: 60_000,
    signal,
  });
}

const NOTHING = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };

test('an abort ends connecting at once, between attempts, instead of at the deadline', async (t) => {
  const stop = new AbortController();
  const host = hostAt(await closedPort(), stop.signal);
  const observing = host.observe(NOTHING);
  setTimeout(() => stop.abort(), 150);
  const started = Date.now();
  const err = await t.throwsAsync(observing);
  t.true(err instanceof HostUnreachableError, String(err));
  t.regex(err.message, /connecting was abandoned/);
  t.true(Date.now() - started < 2000, 'not the 60 s deadline');
  await host.close();
});

test('an abort ends an attempt under way: a server that accepts and never answers', async (t) => {
  // A TCP server that takes the connection and never sends an SSH banner: the handshake waits.
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    silent.close();
  });
  const stop = new AbortController();
  const host = hostAt((silent.address() as { port: number }).port, stop.signal);
  const observing = host.observe(NOTHING);
  setTimeout(() => stop.abort(), 150);
  const started = Date.now();
  const err = await t.throwsAsync(observing);
  t.regex(err.message, /connecting was abandoned/);
  t.true(Date.now() - started < 2000, 'not the 60 s handshake timeout');
  await host.close();
});
