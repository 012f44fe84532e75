import { EventEmitter } from 'node:events';
import test from 'ava';
import { IpcRequester } from './ipc-requester.js';

/** A stand-in for a child process: records what was sent. */
class FakeChannel extends EventEmitter {
  readonly sent: unknown[] = [];
  send(m: unknown): boolean {
    this.sent.push(m);
    return true;
  }
}

test('each answer settles the request with its id, whatever the order they come in', async (t) => {
  const ch = new FakeChannel();
  const r = new IpcRequester(ch, 'the host process');
  const first = r.request({ op: 'usage' });
  const second = r.request({ op: 'hosts', addresses: ['127.0.0.1'] });
  t.deepEqual(ch.sent, [
    { op: 'usage', id: 1 },
    { op: 'hosts', addresses: ['127.0.0.1'], id: 2 },
  ]);
  r.answer({ id: 2, ok: true, value: 'two' });
  r.answer({ id: 1, ok: true, value: 'one' });
  t.is(await first, 'one');
  t.is(await second, 'two');
});

test('an error answer rejects its request naming the other side; an answer to nothing is dropped', async (t) => {
  const r = new IpcRequester(new FakeChannel(), 'the host process of WIN-1');
  const asked = r.request({ op: 'hosts', addresses: ['127.9.9.9'] });
  r.answer({ id: 99, ok: true, value: 'stray' });
  r.answer({ id: 1, ok: false, error: 'no simulated host at 127.9.9.9 in this process' });
  const err = await t.throwsAsync(asked);
  t.is(err.message, 'the host process of WIN-1: no simulated host at 127.9.9.9 in this process');
});

test('when the other side exits, waiting and later requests fail instead of hanging', async (t) => {
  const ch = new FakeChannel();
  const r = new IpcRequester(ch, 'the host process of WIN-2');
  const waiting = r.request({ op: 'usage' });
  ch.emit('exit');
  t.is((await t.throwsAsync(waiting)).message, 'the host process of WIN-2 exited');
  t.is((await t.throwsAsync(r.request({ op: 'usage' }))).message, 'the host process of WIN-2 exited');
});

test('a channel that cannot send fails the request at once', async (t) => {
  const ch = new FakeChannel();
  ch.send = (): boolean => {
    throw new Error('channel closed');
  };
  const err = await t.throwsAsync(new IpcRequester(ch, 'the host process').request({ op: 'usage' }));
  t.is(err.message, 'the host process: channel closed');
});
