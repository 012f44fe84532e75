import test from 'ava';
import { clone } from './json.js';

test('clone copies plain objects and arrays deeply, sharing nothing', (t) => {
  const v = { a: { b: [1, { c: 'x' }], d: null, e: true }, f: [[2]] };
  const c = clone(v);
  t.deepEqual(c, v);
  t.not(c.a, v.a);
  t.not(c.a.b, v.a.b);
  t.not(c.a.b[1], v.a.b[1]);
  t.not(c.f[0], v.f[0]);
  (c.a.b[1] as { c: string }).c = 'y';
  t.is((v.a.b[1] as { c: string }).c, 'x', 'the original is untouched');
});

test('clone keeps what is not plain JSON as structuredClone does', (t) => {
  const when = new Date('2026-11-28T00:00:00Z');
  const c = clone({ when, bytes: Buffer.from('ab'), gone: undefined, bare: Object.create(null) as object });
  t.true(c.when instanceof Date);
  t.not(c.when, when);
  t.is(c.when.getTime(), when.getTime());
  t.deepEqual([...c.bytes], [97, 98]);
  t.true(Object.hasOwn(c, 'gone'));
  t.deepEqual(c.bare, {});
});
