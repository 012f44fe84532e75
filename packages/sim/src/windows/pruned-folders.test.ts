import test from 'ava';
import { apply, observe } from './host-operations.js';
import { WindowsModel } from './windows-model.js';

const REG = 'C:\\k\\containerd\\registries';

function model(): WindowsModel {
  const m = new WindowsModel({ hostname: 'WIN-A' });
  m.files.mkdirp(`${REG}\\keep.example.com`);
  m.files.write(`${REG}\\keep.example.com\\hosts.toml`, Buffer.from('k'));
  m.files.mkdirp(`${REG}\\stale.example.com`);
  m.files.write(`${REG}\\stale.example.com\\hosts.toml`, Buffer.from('s'));
  m.files.mkdirp('C:\\outside\\data');
  m.files.write('C:\\outside\\data\\precious.txt', Buffer.from('p'));
  m.files.link(`${REG}\\linked`, 'C:\\outside\\data', 'junction');
  return m;
}

const query = {
  directories: [],
  files: [],
  services: [],
  envVars: [],
  firewallRules: [],
};

test('observe lists the sub-folders of a requested prunable root, links as themselves', (t) => {
  const m = model();
  const state = observe(m, { v: 1, op: 'observe', ...query, listDirectories: [REG] });
  t.deepEqual(state.children, { [REG]: ['keep.example.com', 'linked', 'stale.example.com'] });
  t.is(observe(m, { v: 1, op: 'observe', ...query }).children, undefined);
});

test('removeDirectory removes a stale registry folder, and a link without its target', async (t) => {
  const m = model();
  const r = await apply(m, [
    { kind: 'removeDirectory', path: `${REG}\\stale.example.com` },
    { kind: 'removeDirectory', path: `${REG}\\linked` },
    { kind: 'removeDirectory', path: `${REG}\\already-gone` },
  ]);
  t.true(r.ok, JSON.stringify(r));
  t.false(m.files.isDirectory(`${REG}\\stale.example.com`));
  t.is(m.files.linkAt(`${REG}\\linked`), undefined);
  t.is(m.files.read('C:\\outside\\data\\precious.txt')?.toString(), 'p', 'the link target is untouched');
  t.is(m.files.read(`${REG}\\keep.example.com\\hosts.toml`)?.toString(), 'k');
});

test('removeDirectory refuses anything that is not directly under a prunable root', async (t) => {
  const m = model();
  const r = await apply(m, [{ kind: 'removeDirectory', path: 'C:\\outside' }]);
  t.false(r.ok);
  t.regex(r.error?.message ?? '', /not a folder directly under a prunable root/);
  t.true(m.files.isDirectory('C:\\outside\\data'));
});
