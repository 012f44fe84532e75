import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskFileSystem } from './disk-file-system.js';

function fresh(t: ExecutionContext): DiskFileSystem {
  const dir = mkdtempSync(join(tmpdir(), 'wmco-disk-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return new DiskFileSystem(join(dir, 'C'));
}

test('a write lands in the host folder, and a file written there is read back', (t) => {
  const fs = fresh(t);
  fs.mkdirp('C:\\k\\cni');
  fs.write('C:\\k\\cni\\cni.conf', Buffer.from('a'));
  t.is(readFileSync(join(fs.root, 'k', 'cni', 'cni.conf'), 'utf8'), 'a');
  writeFileSync(join(fs.root, 'k', 'kubeconfig'), 'by pwsh');
  t.is(fs.read('C:\\k\\kubeconfig')?.toString(), 'by pwsh');
  t.deepEqual(
    fs
      .list('C:\\k')
      .map((e) => [e.name, e.directory])
      .sort(),
    [
      ['cni', true],
      ['kubeconfig', false],
    ],
  );
});

test('paths are case-insensitive and keep the spelling they were created with', (t) => {
  const fs = fresh(t);
  fs.mkdirp('C:\\ProgramData\\wmco');
  fs.write('c:\\programdata\\WMCO\\Module.psm1', Buffer.from('m'));
  t.true(existsSync(join(fs.root, 'ProgramData', 'wmco', 'Module.psm1')));
  t.is(fs.read('C:/PROGRAMDATA/wmco/module.PSM1')?.toString(), 'm');
  t.true(fs.isDirectory('c:\\PROGRAMDATA'));
  t.is(fs.nativePath('c:\\programdata\\wmco'), join(fs.root, 'ProgramData', 'wmco'));
});

test('rename refuses an existing target unless replacing; remove takes a tree', (t) => {
  const fs = fresh(t);
  fs.mkdirp('C:\\k\\a');
  fs.write('C:\\k\\x', Buffer.from('1'));
  fs.write('C:\\k\\y', Buffer.from('2'));
  t.throws(() => fs.rename('C:\\k\\x', 'C:\\k\\y', false), { message: /already exists/ });
  fs.rename('C:\\k\\x', 'C:\\k\\y', true);
  t.is(fs.read('C:\\k\\y')?.toString(), '1');
  t.false(fs.isFile('C:\\k\\x'));
  t.deepEqual(fs.descendants('C:\\k'), ['C:\\k\\a', 'C:\\k\\y']);
  t.true(fs.remove('C:\\k'));
  t.false(fs.remove('C:\\k'));
  t.throws(() => fs.write('C:\\k\\z', Buffer.from('3')), { message: /Could not find a part of the path/ });
});

test('a link is a real symbolic link, removed as a link; the ACL bit is kept here and inherited', (t) => {
  const fs = fresh(t);
  fs.mkdirp('C:\\outside');
  fs.write('C:\\outside\\keep.txt', Buffer.from('k'));
  fs.mkdirp('C:\\k');
  fs.link('C:\\k\\logs', 'C:\\outside', 'junction');
  t.deepEqual(fs.linkAt('C:\\k\\logs'), { target: 'C:\\outside', kind: 'junction' });
  t.is(fs.read('C:\\k\\logs\\keep.txt')?.toString(), 'k');
  fs.remove('C:\\k\\logs');
  t.true(fs.isFile('C:\\outside\\keep.txt'), 'the target survives');
  t.false(fs.isRestricted('C:\\k\\sub'));
  fs.restrict('C:\\k');
  fs.mkdirp('C:\\k\\sub');
  t.true(fs.isRestricted('c:\\K\\sub'));
  t.throws(() => fs.restrict('C:\\nothing'), { message: /does not exist/ });
});

test('only drive C: exists', (t) => {
  t.throws(() => fresh(t).nativePath('D:\\x'), { message: /drive with the name 'D'/ });
});
