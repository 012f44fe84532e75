import test from 'ava';
import type { KubeList, KubeObject } from './watch-port.js';
import { listInPages } from './paged-list.js';

type Ask = { limit?: number; continue?: string; labelSelector?: string };
const obj = (name: string): KubeObject => ({ metadata: { name } });

test('a list is read page by page, reported at the resourceVersion of its pages', async (t) => {
  const asks: Ask[] = [];
  const pages: Record<string, KubeList<KubeObject>> = {
    '': { items: [obj('a'), obj('b')], metadata: { resourceVersion: '7', _continue: 'p2' } },
    p2: { items: [obj('c'), obj('d')], metadata: { resourceVersion: '7', _continue: 'p3' } },
    p3: { items: [obj('e')], metadata: { resourceVersion: '7' } },
  };
  const list = await listInPages(
    (a: Ask) => {
      asks.push(a);
      return Promise.resolve(pages[a.continue ?? '']!);
    },
    { labelSelector: 'x=y' },
    2,
  );
  t.deepEqual(
    list.items.map((o) => o.metadata?.name),
    ['a', 'b', 'c', 'd', 'e'],
  );
  t.is(list.metadata?.resourceVersion, '7');
  t.deepEqual(asks, [
    { labelSelector: 'x=y', limit: 2 },
    { labelSelector: 'x=y', limit: 2, continue: 'p2' },
    { labelSelector: 'x=y', limit: 2, continue: 'p3' },
  ]);
});

test('a continue token that expired is answered by one unpaged list', async (t) => {
  const asks: Ask[] = [];
  const list = await listInPages(
    (a: Ask) => {
      asks.push(a);
      if (a.continue !== undefined) return Promise.reject(Object.assign(new Error('Expired'), { code: 410 }));
      if (a.limit === undefined)
        return Promise.resolve({ items: [obj('a'), obj('b'), obj('c')], metadata: { resourceVersion: '9' } });
      return Promise.resolve({ items: [obj('a')], metadata: { resourceVersion: '8', _continue: 'p2' } });
    },
    {},
    1,
  );
  t.deepEqual(
    list.items.map((o) => o.metadata?.name),
    ['a', 'b', 'c'],
  );
  t.is(list.metadata?.resourceVersion, '9');
  t.deepEqual(asks, [{ limit: 1 }, { limit: 1, continue: 'p2' }, {}]);
});

test('other errors, and a 410 on the first page, are errors', async (t) => {
  const gone = Object.assign(new Error('Expired'), { code: 410 });
  await t.throwsAsync(
    listInPages(() => Promise.reject(gone), {}, 5),
    { message: 'Expired' },
  );
});
