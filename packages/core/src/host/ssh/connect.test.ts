import test from 'ava';
import { createServer } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import { HostUnreachableError } from '../errors.js';
import { InMemoryHostKeyStore } from '../host-key-store.js';
import type { SshHostOptions } from './ssh-options.js';
import { SshWindowsHost } from './ssh-windows-host.js';

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An adapter for 127.0.0.1:`port` with a fresh key, fast retries and `options`. */
function hostAt(port: number, options: Partial<SshHostOptions>): SshWindowsHost {
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
    ...options,
  });
}

const NOTHING = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };

test('connecting retries with backoff and gives up at the deadline with HostUnreachableError', async (t) => {
  const logged: unknown[] = [];
  const host = hostAt(await closedPort(), {
    logger: { warn: () => undefined, debug: (_m, f) => logged.push(f?.['delay']) },
    retryMaxMs: 80,
    connectDeadlineMs: 400,
  });
  const started = Date.now();
  const err = await t.throwsAsync(host.observe(NOTHING));
  t.true(err instanceof HostUnreachableError, String(err));
  t.regex(err.message, /ECONNREFUSED/);
  t.true(Date.now() - started < 1500);
  t.deepEqual(logged.slice(0, 4), [20, 40, 80, 80], 'delays double up to the cap');
  await host.close();
});

/** Observes through an adapter for `port` and aborts it after 150 ms: the error, and how long it took. */
async function abortedObserve(port: number): Promise<{ err: unknown; ms: number }> {
  const stop = new AbortController();
  const host = hostAt(port, {
    retryMaxMs: 100,
    connectDeadlineMs: 60_000,
    readyTimeoutMs: 60_000,
    signal: stop.signal,
  });
  setTimeout(() => stop.abort(), 150);
  const started = Date.now();
  const err: unknown = await host.observe(NOTHING).then(
    () => undefined,
    (e: unknown) => e,
  );
  await host.close();
  return { err, ms: Date.now() - started };
}

test('an abort ends connecting at once, between attempts, instead of at the deadline', async (t) => {
  const { err, ms } = await abortedObserve(await closedPort());
  t.true(err instanceof HostUnreachableError, String(err));
  t.regex(String(err), /connecting was abandoned/);
  t.true(ms < 2000, 'not the 60 s deadline');
});

test('an abort ends an attempt under way: a server that accepts and never answers', async (t) => {
  // A TCP server that takes the connection and never sends an SSH banner: the handshake waits.
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    silent.close();
  });
  const { err, ms } = await abortedObserve((silent.address() as { port: number }).port);
  t.regex(String(err), /connecting was abandoned/);
  t.true(ms < 2000, 'not the 60 s handshake timeout');
});

test('a host that takes the connection and never finishes the handshake is given up after a few attempts, not at the connect deadline', async (t) => {
  const accepted: unknown[] = [];
  const silent = createServer((socket) => accepted.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    silent.close();
  });
  const host = hostAt((silent.address() as { port: number }).port, {
    readyTimeoutMs: 100,
    connectDeadlineMs: 10 * 60_000,
    silentHandshakeAttempts: 2,
  });
  const err = await t.throwsAsync(host.observe(NOTHING), { instanceOf: HostUnreachableError });
  t.regex(
    err.message,
    /accepted the connection but did not finish the SSH handshake within 100 ms \(2 attempts/,
  );
  t.is(accepted.length, 2, 'two attempts, then given up');
  await host.close();
});
