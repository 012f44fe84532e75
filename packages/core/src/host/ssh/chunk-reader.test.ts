import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlockPool } from './block-pool.js';
import { chunkReader, type Chunk } from './chunk-reader.js';

// Blocks of 64 KiB: above Node's shared pool (half of Buffer.poolSize), so each has memory of its own.
const CHUNK = 8192;
const BLOCK = CHUNK * 8;

function tempFile(bytes: Buffer): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'chunk-reader-'));
  const path = join(dir, 'payload.bin');
  writeFileSync(path, bytes);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function readAll(path: string, pool: BlockPool): Promise<Chunk[]> {
  const reader = await chunkReader({ localPath: path }, CHUNK, pool);
  const chunks: Chunk[] = [];
  for (let p = 0; p < reader.size; p += CHUNK)
    chunks.push(await reader.read(p, Math.min(CHUNK, reader.size - p)));
  await reader.close();
  return chunks;
}

test('a file is read in chunks that hold its bytes; a block goes back once each of its chunks is released', async (t) => {
  const data = randomBytes(BLOCK * 2 + CHUNK * 2 + 2500); // two whole blocks and a short last one of 3 chunks
  const file = tempFile(data);
  t.teardown(() => file.remove());
  const pool = new BlockPool();
  t.teardown(() => pool.trim());
  const chunks = await readAll(file.path, pool);
  t.true(Buffer.concat(chunks.map((c) => c.bytes)).equals(data));
  t.is(chunks.length, 19);
  // All but one chunk of the first block: it is still in use.
  for (const c of chunks.slice(0, 7)) c.release();
  t.is(pool.freeBlocks, 0);
  chunks[7]!.release();
  chunks[7]!.release(); // twice counts once
  t.is(pool.freeBlocks, 1);
  for (const c of chunks.slice(8)) c.release();
  t.is(pool.freeBlocks, 2, 'the two whole blocks; the short last one is not pooled');
});

test('the next file reads into the blocks the last one gave back, and still gets its own bytes', async (t) => {
  const secondBytes = randomBytes(BLOCK * 2);
  const first = tempFile(randomBytes(BLOCK * 2));
  const second = tempFile(secondBytes);
  t.teardown(() => (first.remove(), second.remove()));
  const pool = new BlockPool();
  t.teardown(() => pool.trim());
  const a = await readAll(first.path, pool);
  const memory = new Set(a.map((c) => c.bytes.buffer));
  for (const c of a) c.release();
  const b = await readAll(second.path, pool);
  t.deepEqual(new Set(b.map((c) => c.bytes.buffer)), memory);
  t.true(Buffer.concat(b.map((c) => c.bytes)).equals(secondBytes));
});

test('chunks of a file not released keep their blocks: nothing is given back while bytes may be in flight', async (t) => {
  const file = tempFile(randomBytes(BLOCK * 3));
  t.teardown(() => file.remove());
  const pool = new BlockPool();
  t.teardown(() => pool.trim());
  const chunks = await readAll(file.path, pool);
  t.is(chunks.length, 24);
  t.is(pool.freeBlocks, 0);
  const again = await readAll(file.path, pool);
  t.false(again.some((c) => chunks.some((d) => d.bytes.buffer === c.bytes.buffer)));
});

test('a file smaller than a block is read into memory of its size, not a pooled block', async (t) => {
  const data = randomBytes(2500);
  const file = tempFile(data);
  t.teardown(() => file.remove());
  const pool = new BlockPool();
  pool.give(Buffer.allocUnsafe(BLOCK));
  const chunks = await readAll(file.path, pool);
  t.true(Buffer.concat(chunks.map((c) => c.bytes)).equals(data));
  t.is(pool.freeBlocks, 1, 'the free block was not taken');
  for (const c of chunks) c.release();
  t.is(pool.freeBlocks, 1);
  pool.trim();
});

test('a buffer source is handed out as slices of itself', async (t) => {
  const data = randomBytes(2500);
  const reader = await chunkReader(data, CHUNK, new BlockPool());
  const c = await reader.read(1000, 1000);
  t.is(c.bytes.buffer, data.buffer);
  t.true(c.bytes.equals(data.subarray(1000, 2000)));
  c.release();
  await reader.close();
});
