import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { listingEntries } from './gather-node-logs.js';
import { GatherOutput } from './gather-output.js';
import { TailBuffer } from './node-log-client.js';

test('a kubelet folder listing yields its names; climbing or nested names are dropped', (t) => {
  const html =
    '<pre>\n<a href="kube-proxy/">kube-proxy/</a>\n<a href="kubelet.log">kubelet.log</a>\n' +
    '<a href="../">../</a>\n<a href="a%2Fb">x</a>\n<a href="..%5Ck">y</a>\n<a href="%E0%A4%A">bad</a>\n</pre>';
  t.deepEqual(listingEntries(html), ['kube-proxy/', 'kubelet.log']);
});

test('the tail buffer keeps the last bytes of a long stream', (t) => {
  const tail = new TailBuffer(5);
  for (const chunk of ['abc', 'defg', 'hijkl', 'mn']) tail.push(Buffer.from(chunk));
  t.is(tail.tail().toString(), 'jklmn');
  t.is(tail.total, 14);
});

test('the output refuses paths that leave its folder', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-gather-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const out = new GatherOutput(dir);
  await out.file('nodes/n/logs/a.log', 'x');
  await t.throwsAsync(out.file('nodes/../../escape.log', 'x'), { message: /refusing to write outside/ });
  await t.throwsAsync(out.file('/etc/escape', 'x'), { message: /refusing to write outside/ });
  t.deepEqual(out.written, ['nodes/n/logs/a.log']);
});
