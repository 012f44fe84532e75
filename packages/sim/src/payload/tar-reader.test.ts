import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { tarOf } from './tar-gz.js';
import { TarReader } from './tar-reader.js';

function readInChunks(archive: Buffer, size: number, reader = new TarReader()): Map<string, Buffer> {
  for (let at = 0; at < archive.length; at += size) reader.push(archive.subarray(at, at + size));
  return reader.end();
}

test('chunks of any size read like the whole archive (pax and GNU long names, ./ prefixes)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-tar-reader-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const long = `${'l'.repeat(130)}.exe`;
  await writeFile(join(dir, 'kubelet.exe'), Buffer.from('MZ kubelet '.repeat(300)));
  await writeFile(join(dir, long), 'long name');
  await writeFile(join(dir, 'empty.txt'), '');
  for (const format of ['pax', 'gnu']) {
    const path = join(dir, `${format}.tar`);
    execFileSync('tar', ['--format', format, '-cf', path, '-C', dir, './kubelet.exe', long, 'empty.txt']);
    const archive = await readFile(path);
    const whole = readInChunks(archive, archive.length);
    t.deepEqual([...whole.keys()], ['kubelet.exe', long, 'empty.txt'], format);
    t.deepEqual(whole.get('kubelet.exe'), Buffer.from('MZ kubelet '.repeat(300)));
    for (const size of [1, 7, 511, 512, 513, 4096])
      t.deepEqual(readInChunks(archive, size), whole, `${format} ${size}`);
  }
});

test('each file gets a buffer of its own from allocate, never a view of the input', (t) => {
  const archive = tarOf('a.exe', Buffer.from('abc'));
  const sizes: number[] = [];
  const reader = new TarReader((n) => {
    sizes.push(n);
    return Buffer.from(new SharedArrayBuffer(n));
  });
  const file = readInChunks(archive, 100, reader).get('a.exe')!;
  t.deepEqual(sizes, [3]);
  t.true(file.buffer instanceof SharedArrayBuffer);
  t.is(file.toString(), 'abc');
  const plain = readInChunks(archive, archive.length).get('a.exe')!;
  t.not(plain.buffer, archive.buffer);
  t.is(plain.buffer.byteLength, 3, 'its own memory, not the input chunk or a pool');
});

test('a truncated file is an error in whatever chunk it ends; what follows the end marker is ignored', (t) => {
  const archive = tarOf('a.exe', Buffer.from('x'.repeat(2000)));
  for (const size of [1, 100, 600]) {
    t.throws(() => readInChunks(archive.subarray(0, 1500), size), { message: /truncated tar archive/ });
  }
  const header = Buffer.from(archive);
  header[10] = header[10]! ^ 1;
  t.throws(() => readInChunks(header, 64), { message: /bad header checksum at byte 0/ });
  const trailing = Buffer.concat([archive, Buffer.from('garbage after the end-of-archive marker')]);
  t.is(readInChunks(trailing, 333).get('a.exe')?.length, 2000);
  // No end marker, a partial header at the end: ignored, as by the whole-buffer reader before.
  const partial = Buffer.concat([archive.subarray(0, 512 + 2048), Buffer.alloc(100, 1)]);
  t.is(readInChunks(partial, 50).get('a.exe')?.length, 2000);
});
