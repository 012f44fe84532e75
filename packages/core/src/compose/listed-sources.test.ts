import test from 'ava';
import type { InstanceList } from '../sources/byoh/instance-list.js';
import { listedSources } from './listed-sources.js';
import type { WmcoControllersOptions } from './wmco-controllers-options.js';

const hosts: InstanceList = {
  start: () => Promise.resolve(),
  stop: () => undefined,
  synced: true,
  instances: () => ({}),
};
const options = (o: Partial<WmcoControllersOptions>): WmcoControllersOptions => o as WmcoControllersOptions;

test('windows-instances runs unless byoh is false; each embedder’s source runs beside it with its own record source', (t) => {
  const ids = (o: Partial<WmcoControllersOptions>): string[] =>
    listedSources(options(o)).map((s) => `${s.id}:${s.record}`);
  t.deepEqual(ids({}), ['byoh:windows-instances']);
  t.deepEqual(ids({ sources: [{ id: 'windows-hosts', hosts }] }), [
    'byoh:windows-instances',
    'windows-hosts:source/windows-hosts',
  ]);
  t.deepEqual(ids({ byoh: false, sources: [{ id: 'windows-hosts', hosts }] }), [
    'windows-hosts:source/windows-hosts',
  ]);
  // The compatible path: the embedder's list as windows-instances' hosts.
  const [compat] = listedSources(options({ instances: hosts }));
  t.is(compat?.list, hosts);
  t.is(compat?.record, 'windows-instances');
});

test('no source at all, a reserved or malformed id, or one id twice is refused before anything runs', (t) => {
  t.throws(() => listedSources(options({ byoh: false })), { message: /no source of Windows hosts/ });
  t.throws(() => listedSources(options({ sources: [{ id: 'byoh', hosts }] })), { message: /reserved/ });
  t.throws(() => listedSources(options({ sources: [{ id: 'Hosts', hosts }] })), { message: /DNS-1123/ });
  const twice = [
    { id: 'a', hosts },
    { id: 'a', hosts },
  ];
  t.throws(() => listedSources(options({ sources: twice })), { message: /given twice/ });
});
