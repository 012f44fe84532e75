import test from 'ava';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import { HostUnreachableError } from '../errors.js';
import { InMemoryHostKeyStore } from '../host-key-store.js';
import type { SshHostOptions } from './ssh-options.js';
import { SshWindowsHost } from './ssh-windows-host.js';

/**
 * This file's loopback address, one of 127.0.0.0/8 chosen at random: a port closed on 127.0.0.1 was once
 * taken by another test file's simulated SSH host before the connect (the attempt met its SFTP, "Operation
 * unsupported", instead of ECONNREFUSED); the simulated hosts and servers of other files use 127.0.0.1 or
 * addresses of their own.
 */
const ADDRESS = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;

/** A port of ADDRESS with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, ADDRESS, resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An adapter for ADDRESS:`port` with a fresh key, fast retries and `options`. */
function hostAt(port: number, options: Partial<SshHostOptions>): SshWindowsHost {
  return new SshWindowsHost({
    host: ADDRESS,
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
    connectDeadlineMs: 3000,
  });
  const err = await t.throwsAsync(host.observe(NOTHING));
  t.true(err instanceof HostUnreachableError, String(err));
  t.regex(err.message, /ECONNREFUSED/);
  t.deepEqual(logged.slice(0, 4), [20, 40, 80, 80], 'delays double up to the cap');
  // Given up at the deadline: no wait was begun that would end past it, however slow the attempts were.
  const waited = (logged as number[]).reduce((sum, d) => sum + d, 0);
  t.true(waited <= 3000, `waits of ${waited} ms in all`);
  await host.close();
});

// An hour: longer than ava's timeout, so a connect that ends within the test was ended by the abort.
const NEVER_MS = 3_600_000;

/**
 * Observes through an adapter for `port` with deadlines that never come, and aborts it once `under`
 * resolves (an attempt seen under way): the error it ended with.
 */
async function abortedObserve(
  port: number,
  under: (debug: Promise<void>) => Promise<void>,
): Promise<unknown> {
  const stop = new AbortController();
  let retrying: () => void = () => undefined;
  const retried = new Promise<void>((resolve) => (retrying = resolve));
  const host = hostAt(port, {
    logger: { warn: () => undefined, debug: () => retrying() },
    retryInitialMs: 10_000,
    retryMaxMs: 10_000,
    connectDeadlineMs: NEVER_MS,
    readyTimeoutMs: NEVER_MS,
    signal: stop.signal,
  });
  const err = host.observe(NOTHING).then(
    () => undefined,
    (e: unknown) => e,
  );
  await under(retried);
  stop.abort();
  const ended = await err;
  await host.close();
  return ended;
}

test('an abort ends connecting at once, between attempts, instead of at the deadline', async (t) => {
  // Aborted in the 10 s wait after the first refused attempt: only the abort can end it early.
  const err = await abortedObserve(await closedPort(), (retried) => retried);
  t.true(err instanceof HostUnreachableError, String(err));
  t.regex(String(err), /connecting was abandoned/);
});

test('an abort ends an attempt under way and closes its connection: a server that accepts and never answers', async (t) => {
  // A TCP server that takes the connection and never sends an SSH banner: the handshake waits (for an hour).
  let accepted: (socket: Socket) => void = () => undefined;
  const taken = new Promise<Socket>((resolve) => (accepted = resolve));
  const silent = createServer((socket) => accepted(socket));
  await new Promise<void>((resolve) => silent.listen(0, ADDRESS, resolve));
  t.teardown(() => {
    silent.close();
  });
  const err = await abortedObserve((silent.address() as { port: number }).port, async () => {
    await taken;
  });
  t.regex(String(err), /connecting was abandoned/);
  // The abandoned attempt closed its connection: nothing of it (socket, handshake timer) holds the process.
  const socket = await taken;
  if (!socket.closed) await once(socket, 'close');
  t.true(socket.closed);
});

test('a host that takes the connection and never finishes the handshake is given up after a few attempts, not at the connect deadline', async (t) => {
  const accepted: unknown[] = [];
  const silent = createServer((socket) => accepted.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, ADDRESS, resolve));
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
