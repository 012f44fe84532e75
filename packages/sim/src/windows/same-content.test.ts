import test from 'ava';
import { rememberContent, sameAsRecent, type WrittenChunk } from './same-content.js';
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
