import test from 'ava';
import { FakeClock } from '../kube/fake-clock.js';
import { waitFor, type WaitForOptions } from './wait-for.js';

/** A change feed a test drives by hand, like a watch. */
function feed<T>(): {
  changes: (offer: (v: T | undefined) => void) => () => void;
  emit(v: T): void;
  subscribers(): number;
} {
  const offers = new Set<(v: T | undefined) => void>();
  return {
    changes: (offer) => {
      offers.add(offer);
      return () => offers.delete(offer);
    },
    emit: (v) => [...offers].forEach((o) => o(v)),
    subscribers: () => offers.size,
  };
}

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

/** A probe that never finds what it waits for, and how often it was called. */
function nothingYet(): { probe: () => Promise<undefined>; readonly calls: number } {
  const counter = { calls: 0, probe: () => (counter.calls++, Promise.resolve(undefined)) };
  return counter;
}

/** waitFor's options: a minute, a poll a second, never aborted, on `clock`; `extra` overrides. */
function options<T>(clock: FakeClock, extra: Partial<WaitForOptions<T>> = {}): WaitForOptions<T> {
  return {
    timeoutMs: 60_000,
    pollMs: 1000,
    signal: new AbortController().signal,
    what: 'x',
    clock,
    ...extra,
  };
}

test('a change that satisfies the wait ends it at once: no poll interval passes, nothing is read again', async (t) => {
  const clock = new FakeClock();
  const f = feed<string>();
  const probes = nothingYet();
  const waiting = waitFor(probes.probe, options(clock, { changes: f.changes }));
  await flush();
  t.is(probes.calls, 1, 'read once at the start');
  f.emit('ready');
  t.is(await waiting, 'ready');
  t.is(probes.calls, 1);
  t.is(clock.pendingTimers, 0, 'the poll timer is gone');
  t.is(f.subscribers(), 0, 'unsubscribed');
});

test('a change that does not satisfy it (undefined) keeps waiting; the poll is the safety net', async (t) => {
  const clock = new FakeClock();
  const f = feed<string | undefined>();
  let probes = 0;
  const waiting = waitFor(
    () => Promise.resolve(++probes >= 3 ? 'polled' : undefined),
    options(clock, { changes: f.changes }),
  );
  await flush();
  f.emit(undefined);
  clock.advance(1000);
  await flush();
  t.is(probes, 2);
  clock.advance(1000);
  t.is(await waiting, 'polled');
  t.is(f.subscribers(), 0);
});

test('without a feed it polls every pollMs and times out naming what it waited for', async (t) => {
  const clock = new FakeClock();
  const probes = nothingYet();
  const waiting = waitFor(probes.probe, options(clock, { timeoutMs: 3000, what: 'node win-a' }));
  for (let i = 0; i < 4; i++) {
    await flush();
    clock.advance(1000);
  }
  const err = await t.throwsAsync(waiting);
  t.is(err.message, 'timed out after 3s waiting for node win-a');
  t.is(probes.calls, 4);
  t.is(clock.pendingTimers, 0);
});

test('an abort ends the wait at once; a probe error ends it with that error', async (t) => {
  const clock = new FakeClock();
  const ac = new AbortController();
  const f = feed<string>();
  const waiting = waitFor(
    () => Promise.resolve(undefined),
    options(clock, { signal: ac.signal, what: 'node win-a', changes: f.changes }),
  );
  await flush();
  ac.abort();
  t.is((await t.throwsAsync(waiting)).message, 'stopped while waiting for node win-a');
  t.is(clock.pendingTimers, 0);
  t.is(f.subscribers(), 0);
  const failing = waitFor(() => Promise.reject(new Error('403 forbidden')), options(clock));
  t.is((await t.throwsAsync(failing)).message, '403 forbidden');
});

test('a value offered while subscribing ends the wait before any read', async (t) => {
  const probes = nothingYet();
  const value = await waitFor<string>(
    probes.probe,
    options(new FakeClock(), {
      timeoutMs: 1000,
      pollMs: 100,
      changes: (offer) => {
        offer('already');
        return () => undefined;
      },
    }),
  );
  t.is(value, 'already');
  t.is(probes.calls, 0);
});
