import test from 'ava';
import type { HostState } from '../host/protocol/index.js';
import type { ObserveQuery, WindowsHost } from '../host/windows-host.js';
import type { HostTarget } from '../lifecycle/join-deps.js';
import { fencedOpener, LeadershipEndedError } from './fenced-opener.js';

const query: ObserveQuery = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };
const target: HostTarget = {
  address: '10.0.0.5',
  ipv4: '10.0.0.5',
  username: 'Administrator',
  privateKeyPem: '',
};

/**
 * A host whose observe waits until its connection's signal aborts (a step in flight), recording each step
 * that reached it.
 */
function recordingHost(t: HostTarget, steps: string[]): WindowsHost {
  const reached = <T>(op: string, v: T): Promise<T> => (steps.push(op), Promise.resolve(v));
  return {
    address: t.address,
    stats: undefined,
    observe: () => {
      steps.push('observe');
      return new Promise<HostState>((_, reject) =>
        t.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    },
    upload: () => reached('upload', { uploaded: [], skipped: [], bytesSent: 0 }),
    apply: () => reached('apply', { changed: [], rebootRequired: false } as never),
    reboot: () => reached('reboot', undefined),
    deconfigure: () => reached('deconfigure', {} as never),
    close: () => Promise.resolve(),
  };
}

test('after the fence aborts, the step in flight is aborted and no new step or connection starts', async (t) => {
  const steps: string[] = [];
  const fence = new AbortController();
  const open = fencedOpener((tg) => recordingHost(tg, steps), fence.signal);
  const work = new AbortController();
  const host = open({ ...target, signal: work.signal });
  await host.upload([]);
  const inFlight = host.observe(query);
  fence.abort();
  await t.throwsAsync(inFlight, { message: 'aborted' });
  await t.throwsAsync(host.apply({} as never), { instanceOf: LeadershipEndedError });
  await t.throwsAsync(host.reboot(), { instanceOf: LeadershipEndedError });
  await t.throwsAsync(host.deconfigure({} as never), { instanceOf: LeadershipEndedError });
  t.throws(() => open(target), { instanceOf: LeadershipEndedError });
  t.deepEqual(steps, ['upload', 'observe']);
  t.false(work.signal.aborted, "the fence does not abort the caller's own signal");
});

test("before the fence aborts, the caller's signal still aborts the connection", async (t) => {
  const steps: string[] = [];
  const fence = new AbortController();
  const open = fencedOpener((tg) => recordingHost(tg, steps), fence.signal);
  const work = new AbortController();
  const inFlight = open({ ...target, signal: work.signal }).observe(query);
  work.abort();
  await t.throwsAsync(inFlight, { message: 'aborted' });
  t.false(fence.signal.aborted);
});
