import test from 'ava';
import { DEFAULT_HOST_COSTS, FREE_HOST_COSTS } from '@wmco/sim';
import { HostMessage, HostProcessTask, HostRequest, parseMessage } from './host-process-protocol.js';

const task = {
  hostnames: ['WIN-1', 'WIN-2'],
  authorizedKey: 'ssh-ed25519 AAAA',
  costs: DEFAULT_HOST_COSTS,
  payloadDir: '/tmp/payload',
  vxlanPort: 9898,
  engine: 'model',
  dir: '/tmp/world',
};

test('a task goes through its JSON argument whole', (t) => {
  t.deepEqual(parseMessage(HostProcessTask, JSON.parse(JSON.stringify(task))), task);
});

test('costs JSON cannot carry (an infinite link) are refused with where they were wrong', (t) => {
  // JSON writes Infinity as null: a host must not start with a link of no bandwidth.
  const sent = JSON.parse(JSON.stringify({ ...task, costs: FREE_HOST_COSTS })) as unknown;
  const r = parseMessage(HostProcessTask, sent);
  t.true(r instanceof Error);
  t.regex((r as Error).message, /^malformed message at costs\.bandwidthBytesPerSec: /);
});

test('requests: known operations with an id pass, anything else is an error naming the field', (t) => {
  t.deepEqual(parseMessage(HostRequest, { id: 3, op: 'hosts', addresses: ['127.1.1.1'] }), {
    id: 3,
    op: 'hosts',
    addresses: ['127.1.1.1'],
  });
  t.deepEqual(parseMessage(HostRequest, { id: 4, op: 'usage' }), { id: 4, op: 'usage' });
  const message = (m: unknown): string => {
    const r = parseMessage(HostRequest, m);
    return r instanceof Error ? r.message : 'accepted';
  };
  t.regex(message({ id: 5, op: 'reboot' }), /malformed message at op/);
  t.regex(message({ op: 'usage' }), /malformed message at id/);
  t.true(parseMessage(HostRequest, 'sample') instanceof Error);
});

test('messages of a host process: ready, failed and answers; nothing else', (t) => {
  const ready = { event: 'ready', hosts: [{ address: '127.1.1.1', port: 22, hostname: 'WIN-1' }] };
  t.deepEqual(parseMessage(HostMessage, ready), ready);
  t.deepEqual(parseMessage(HostMessage, { event: 'failed', error: 'EADDRINUSE' }), {
    event: 'failed',
    error: 'EADDRINUSE',
  });
  t.deepEqual(parseMessage(HostMessage, { id: 1, ok: false, error: 'x' }), { id: 1, ok: false, error: 'x' });
  t.true(parseMessage(HostMessage, { event: 'ready' }) instanceof Error);
  t.true(parseMessage(HostMessage, { id: 1, ok: false }) instanceof Error);
});
