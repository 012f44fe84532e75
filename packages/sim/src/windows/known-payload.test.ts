import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { knowPayloadFiles } from './known-payload.js';
import { sharedView, type ArrivingFile } from './same-content.js';

test('the large files of a payload folder become known content; small ones are left alone', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-known-payload-'));
  try {
    const large = randomBytes(2 * 2 ** 20);
    await mkdir(join(dir, 'kube-node'));
    await writeFile(join(dir, 'kube-node', 'kubelet.exe.tar.gz'), large);
    await writeFile(join(dir, 'sha256sum'), 'small\n');
    const { buffers: known, forget } = await knowPayloadFiles(dir);
    t.teardown(forget);
    t.is(known.length, 1);
    t.true(known[0]!.equals(large));
    t.true(known[0]!.buffer instanceof SharedArrayBuffer, 'in shared memory, as stored uploads are');
    const arriving: ArrivingFile = {};
    const write = Buffer.from(large.subarray(2 ** 20, 2 ** 20 + 254 * 1024));
    t.is(sharedView(arriving, 2 ** 20, write).buffer, known[0]!.buffer, 'a host receiving it keeps a view');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
