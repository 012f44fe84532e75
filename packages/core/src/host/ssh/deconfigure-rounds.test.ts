import test from 'ava';
import { HostCommandTimeoutError, HostOperationError, HostUnreachableError } from '../errors.js';
import { deconfigureInRounds, type DeconfigureRound } from './deconfigure-rounds.js';

/** Answers (or failures) in order; counts calls and reconnects. */
function script(
  steps: readonly (DeconfigureRound | Error)[],
  rounds = 3,
  stopped = false,
): {
  run: () => ReturnType<typeof deconfigureInRounds>;
  calls: () => number;
  reconnects: () => number;
} {
  let calls = 0;
  let reconnects = 0;
  const run = (): ReturnType<typeof deconfigureInRounds> =>
    deconfigureInRounds({
      address: '10.0.0.5',
      rounds,
      call: () => {
        const step = steps[calls++];
        if (step === undefined) return Promise.reject(new Error('called once too often'));
        return step instanceof Error ? Promise.reject(step) : Promise.resolve(step);
      },
      reconnect: () => {
        reconnects++;
        return Promise.resolve();
      },
      stopped: () => stopped,
    });
  return { run, calls: () => calls, reconnects: () => reconnects };
}

const act = (kind: string, target: string): { kind: string; target: string } => ({ kind, target });

test('one network per call: reconnects after each removal and reports every round', async (t) => {
  const s = script([
    {
      done: [
        act('deleteService', 'kubelet'),
        act('removeHnsNetwork', 'BaseOVNKubernetesHybridOverlayNetwork'),
      ],
      rebootRequired: true,
      reconnect: true,
    },
    {
      done: [act('removeHnsNetwork', 'OVNKubernetesHybridOverlayNetwork')],
      rebootRequired: false,
      reconnect: true,
    },
    { done: [act('removeDirectory', 'C:\\k')], rebootRequired: false, reconnect: false },
  ]);
  const outcome = await s.run();
  t.deepEqual(
    outcome.done.map((a) => a.target),
    ['kubelet', 'BaseOVNKubernetesHybridOverlayNetwork', 'OVNKubernetesHybridOverlayNetwork', 'C:\\k'],
  );
  t.true(outcome.rebootRequired);
  t.is(s.calls(), 3);
  t.is(s.reconnects(), 2);
});

test('a connection that drops before the answer arrives: reconnect and send the request again', async (t) => {
  const s = script([
    new HostUnreachableError('10.0.0.5', 'the connection closed before the command finished'),
    new HostCommandTimeoutError('10.0.0.5', 60_000),
    { done: [act('removeDirectory', 'C:\\k')], rebootRequired: false, reconnect: false },
  ]);
  const outcome = await s.run();
  t.deepEqual(outcome.done, [act('removeDirectory', 'C:\\k')]);
  t.is(s.reconnects(), 2);
});

test('a failure that is not a lost connection is not retried', async (t) => {
  const s = script([new HostOperationError('10.0.0.5', 'deconfigure', 'access denied')]);
  await t.throwsAsync(s.run(), { instanceOf: HostOperationError, message: /access denied/ });
  t.is(s.calls(), 1);
  t.is(s.reconnects(), 0);
});

test('without networks to remove (one round) a lost connection fails the call as before', async (t) => {
  const s = script([new HostUnreachableError('10.0.0.5', 'gone')], 1);
  await t.throwsAsync(s.run(), { instanceOf: HostUnreachableError });
  t.is(s.reconnects(), 0);
});

test('a stopped caller does not reconnect', async (t) => {
  const s = script([new HostUnreachableError('10.0.0.5', 'connecting was abandoned')], 3, true);
  await t.throwsAsync(s.run(), { instanceOf: HostUnreachableError });
  t.is(s.reconnects(), 0);
});

test('the rounds are bounded: a host that keeps asking to reconnect fails after them', async (t) => {
  const again: DeconfigureRound = { done: [], rebootRequired: false, reconnect: true };
  const s = script([again, again, again, again], 3);
  await t.throwsAsync(s.run(), { instanceOf: HostOperationError, message: /after 3 calls/ });
  t.is(s.calls(), 3);
});
