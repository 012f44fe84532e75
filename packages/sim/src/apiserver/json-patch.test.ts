import test from 'ava';
import { applyJsonPatch, applyMergePatch } from './json-patch.js';
import { ApiError } from './status.js';

test('RFC 6902 operations', (t) => {
  const doc = { a: { b: 1 }, list: [1, 2], 'x/y': 'slash' };
  const out = applyJsonPatch(doc, [
    { op: 'add', path: '/a/c', value: 2 },
    { op: 'replace', path: '/a/b', value: 3 },
    { op: 'add', path: '/list/-', value: 3 },
    { op: 'add', path: '/list/0', value: 0 },
    { op: 'remove', path: '/list/1' },
    { op: 'copy', from: '/a', path: '/copied' },
    { op: 'move', from: '/x~1y', path: '/moved' },
    { op: 'test', path: '/moved', value: 'slash' },
  ]);
  t.deepEqual(out, { a: { b: 3, c: 2 }, list: [0, 2, 3], copied: { b: 3, c: 2 }, moved: 'slash' });
  t.deepEqual(doc, { a: { b: 1 }, list: [1, 2], 'x/y': 'slash' }, 'the input is not modified');
});

test('a failing test op or a missing path is 422; a non-array body is 400', (t) => {
  t.is(
    t.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]), { instanceOf: ApiError })
      .code,
    422,
  );
  t.is(
    t.throws(() => applyJsonPatch({}, [{ op: 'remove', path: '/nope' }]), { instanceOf: ApiError }).code,
    422,
  );
  t.is(t.throws(() => applyJsonPatch({}, { op: 'add' }), { instanceOf: ApiError }).code, 400);
});

test('RFC 7386 merge patch: null deletes, objects merge, arrays replace', (t) => {
  t.deepEqual(applyMergePatch({ a: 1, b: { c: 1, d: 2 }, l: [1, 2] }, { a: null, b: { d: 3 }, l: [9] }), {
    b: { c: 1, d: 3 },
    l: [9],
  });
});
