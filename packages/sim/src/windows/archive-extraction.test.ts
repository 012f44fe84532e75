import { createHash, randomBytes } from 'node:crypto';
import test from 'ava';
import { tarGzOf } from '../payload/tar-gz.js';
import { extractArchive, extractionStarted } from './archive-extraction.js';
import { sha256Of } from './content-hash.js';
import { SHARED_FROM_BYTES } from './shared-memory.js';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

test('an archive is extracted on the extraction thread: every file, large ones in shared memory', async (t) => {
  const big = randomBytes(SHARED_FROM_BYTES + 10);
  const small = Buffer.from('small file');
  const two = await tarGzOf('big.exe', big);
  t.false(extractionStarted(two));
  const files = await extractArchive(two);
  t.true(extractionStarted(two));
  t.deepEqual([...files.keys()], ['big.exe']);
  t.deepEqual(files.get('big.exe'), big);
  t.true(files.get('big.exe')!.buffer instanceof SharedArrayBuffer);
  const one = (await extractArchive(await tarGzOf('small.txt', small))).get('small.txt')!;
  t.deepEqual(one, small);
  t.true(one.buffer instanceof ArrayBuffer, 'a small file is moved, not shared');
});

test('equal archives in different Buffers share one extraction, also one that comes later', async (t) => {
  const data = randomBytes(64 * 1024);
  const packed = await tarGzOf('csi-proxy.exe', data);
  const [a, b] = await Promise.all([
    extractArchive(Buffer.from(packed)),
    extractArchive(Buffer.from(packed)),
  ]);
  t.is(a.get('csi-proxy.exe'), b.get('csi-proxy.exe'), 'one Buffer for both');
  // Later (another wave of hosts): the file is still held by a host, so it is not extracted again.
  const later = await extractArchive(Buffer.from(packed));
  t.is(later.get('csi-proxy.exe'), a.get('csi-proxy.exe'));
  // A different archive of the same length is not mistaken for it.
  const other = Buffer.from(packed);
  other[other.length - 9] = other[other.length - 9]! ^ 0xff;
  await t.throwsAsync(extractArchive(other), { message: /not a gzip file/ });
});

test('the SHA-256 of an extracted file is the real one (computed on the extraction thread)', async (t) => {
  const data = randomBytes(200_000);
  const file = (await extractArchive(await tarGzOf('x.exe', data))).get('x.exe')!;
  t.is(sha256Of(file), sha(data));
});

test('the same Buffer asked twice gets the same answer, a failure included', async (t) => {
  const junk = Buffer.from('this is not gzip at all');
  const first = extractArchive(junk);
  t.is(extractArchive(junk), first);
  await t.throwsAsync(first, { message: /^not a gzip file: / });
  const truncated = (await tarGzOf('k.exe', randomBytes(5000))).subarray(0, 200);
  await t.throwsAsync(extractArchive(Buffer.from(truncated)), {
    message: /not a gzip file: unexpected end of file/,
  });
});
