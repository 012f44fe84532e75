import test from 'ava';
import {
  knownContent,
  rememberContent,
  sameAsRecent,
  sharedView,
  type ArrivingFile,
  type WrittenChunk,
} from './same-content.js';
import { SHARED_FROM_BYTES } from './shared-memory.js';

const SIZE = SHARED_FROM_BYTES * 2;

/** `data` written in 128 KiB chunks, in order. */
function chunks(data: Buffer): WrittenChunk[] {
  const out: WrittenChunk[] = [];
  for (let at = 0; at < data.length; at += 128 * 1024) {
    out.push({ offset: at, data: Buffer.from(data.subarray(at, at + 128 * 1024)) });
  }
  return out;
}

test('a large file with the bytes of a recent one shares its buffer; other bytes do not', (t) => {
  const first = Buffer.alloc(SIZE, 7);
  first.write('first', 1000);
  rememberContent(first);
  const again = Buffer.from(first);
  t.is(sameAsRecent(chunks(again), SIZE), first, 'same bytes: the remembered buffer');
  t.is(sameAsRecent(chunks(again).reverse(), SIZE), first, 'in any order of writes');
  const other = Buffer.from(first);
  other[SIZE - 1] = 8;
  t.is(sameAsRecent(chunks(other), SIZE), undefined, 'one byte differs: its own buffer');
});

test('a file with a gap, of another size or small is never matched', (t) => {
  const known = Buffer.alloc(SIZE, 3);
  rememberContent(known);
  const gap = chunks(Buffer.from(known));
  gap.splice(3, 1);
  t.is(sameAsRecent(gap, SIZE), undefined, 'a gap would be zeros, not the known bytes');
  t.is(sameAsRecent(chunks(Buffer.alloc(SIZE - 1, 3)), SIZE - 1), undefined);
  const small = Buffer.alloc(1000, 3);
  rememberContent(small);
  t.is(sameAsRecent(chunks(Buffer.from(small)), 1000), undefined, 'small files are copied as before');
});

test("a write with a known file's bytes at its offset is kept as a view of that file; other bytes as written", (t) => {
  const known = Buffer.alloc(SIZE, 5);
  known.write('known', 4096);
  knownContent([known]);
  const file: ArrivingFile = {};
  const first = Buffer.from(known.subarray(0, 128 * 1024));
  const kept = sharedView(file, 0, first);
  t.is(kept.buffer, known.buffer, 'the arriving packet is not kept');
  t.true(kept.equals(first));
  const second = Buffer.from(known.subarray(128 * 1024, 256 * 1024));
  t.is(sharedView(file, 128 * 1024, second).buffer, known.buffer);
  const changed = Buffer.from(known.subarray(256 * 1024, 384 * 1024));
  changed[10] = 9;
  t.is(sharedView(file, 256 * 1024, changed), changed, 'a differing write keeps its own bytes');
  t.is(sameAsRecent([{ offset: 0, data: kept }], SIZE), undefined, 'a file with a gap is still its own');
  const other: ArrivingFile = {};
  const unknown = Buffer.alloc(128 * 1024, 1);
  t.is(sharedView(other, 0, unknown), unknown, 'bytes no known file holds are kept as written');
  t.is(other.known, null, 'and the file stops looking');
});
