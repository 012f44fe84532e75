import test from 'ava';
import { createHash } from 'node:crypto';
import { apply } from './host-operations.js';
import { classifyExec, notRecognized } from './exec-handler.js';
import { splitCommandLine, flagValue } from './command-line.js';
import { FileSystem } from './file-system.js';
import { normalizeWindowsPath } from './windows-path.js';
import { WindowsModel } from './windows-model.js';

test('paths are case-insensitive and accept the SFTP spellings', (t) => {
  for (const p of ['C:\\k\\x', 'c:/K/X', '/C:/k/x', 'C:\\k\\.\\y\\..\\x'])
    t.is(normalizeWindowsPath(p)?.toLowerCase(), 'c:\\k\\x');
  t.is(normalizeWindowsPath('relative\\x'), undefined);
  const fs = new FileSystem();
  fs.mkdirp('C:\\k');
  fs.write('C:\\k\\Kubelet.exe', Buffer.from('x'));
  t.true(fs.isFile('c:/K/KUBELET.EXE'));
  t.deepEqual(
    fs.list('C:\\k').map((e) => e.name),
    ['Kubelet.exe'],
  );
  t.throws(() => fs.write('C:\\nope\\x', Buffer.from('')), { message: /Could not find a part of the path/ });
});

test('unknown commands get the default shell’s own error', (t) => {
  t.deepEqual(classifyExec('hostname', 'cmd'), {
    kind: 'error',
    stderr: notRecognized('cmd', 'hostname'),
    code: 1,
  });
  t.regex(
    notRecognized('cmd', 'Get-Help -x'),
    /^'Get-Help' is not recognized as an internal or external command/,
  );
  t.regex(
    notRecognized('powershell', 'foo'),
    /^foo : The term 'foo' is not recognized as the name of a cmdlet/,
  );
});

test('command lines split like CommandLineToArgvW', (t) => {
  const argv = splitCommandLine('"C:\\Program Files\\x.exe" --config=C:\\k\\a.conf --k8s "C:\\a b"');
  t.deepEqual(argv, ['C:\\Program Files\\x.exe', '--config=C:\\k\\a.conf', '--k8s', 'C:\\a b']);
  t.is(flagValue(argv, '--config'), 'C:\\k\\a.conf');
  t.is(flagValue(argv, '--k8s'), 'C:\\a b');
});

test('services run or fail from their command lines and files; dependencies start first', async (t) => {
  const m = new WindowsModel();
  m.files.mkdirp('C:\\k');
  m.files.write('C:\\k\\kube-proxy.exe', Buffer.from('bin'));
  m.files.write('C:\\k\\kubelet.exe', Buffer.from('bin'));
  const base = { startType: 'auto' as const, description: '' };
  m.scm.create({ ...base, name: 'kubelet', commandLine: 'C:\\k\\kubelet.exe', dependencies: [] });
  m.scm.create({
    ...base,
    name: 'kube-proxy',
    commandLine: 'C:\\k\\kube-proxy.exe --config C:\\k\\kube-proxy.conf',
    dependencies: ['kubelet'],
  });
  await t.throwsAsync(m.scm.start('kube-proxy'), { message: /file not found: C:\\k\\kube-proxy\.conf/ });
  t.is(m.scm.get('kubelet')?.state, 'running', 'the dependency was started first');
  m.files.write('C:\\k\\kube-proxy.conf', Buffer.from('cfg'));
  await m.scm.start('kube-proxy');
  await m.scm.stop('kubelet');
  t.deepEqual(m.scm.events.map((e) => `${e.action} ${e.name}`).slice(-2), [
    'stop kube-proxy',
    'stop kubelet',
  ]);
});

test('replacing the binary of a running service fails, as Windows locks it', async (t) => {
  const m = new WindowsModel();
  const data = Buffer.from('new binary');
  const sha = createHash('sha256').update(data).digest('hex');
  m.files.mkdirp('C:\\ProgramData\\wmco\\staging');
  m.files.mkdirp('C:\\k');
  m.files.write('C:\\k\\kubelet.exe', Buffer.from('old'));
  m.scm.create({
    name: 'kubelet',
    commandLine: '"C:\\K\\kubelet.exe" --v=2',
    startType: 'auto',
    dependencies: [],
    description: '',
  });
  await m.scm.start('kubelet');
  m.files.write(`C:\\ProgramData\\wmco\\staging\\${sha}`, data);
  const locked = await apply(m, [{ kind: 'placeFile', path: 'C:\\k\\kubelet.exe', sha256: sha }]);
  t.false(locked.ok);
  t.regex(locked.error?.message ?? '', /being used by another process \(kubelet\)/);
  const ok = await apply(m, [
    { kind: 'stopService', name: 'kubelet' },
    { kind: 'placeFile', path: 'C:\\k\\kubelet.exe', sha256: sha },
  ]);
  t.true(ok.ok);
  t.true(m.files.read('C:\\k\\kubelet.exe')?.equals(data));
});

test('the binary a kube-log-runner service runs is locked too, while the service is not stopped', async (t) => {
  const m = new WindowsModel();
  const data = Buffer.from('new kubelet');
  const sha = createHash('sha256').update(data).digest('hex');
  m.files.mkdirp('C:\\ProgramData\\wmco\\staging');
  m.files.mkdirp('C:\\k');
  m.files.write('C:\\k\\kube-log-runner.exe', Buffer.from('runner'));
  m.files.write('C:\\k\\kubelet.exe', Buffer.from('old'));
  m.scm.create({
    name: 'kubelet',
    commandLine:
      'C:\\k\\kube-log-runner.exe -log-file=C:\\var\\log\\kubelet\\kubelet.log C:\\k\\kubelet.exe --v=2',
    startType: 'auto',
    dependencies: [],
    description: '',
  });
  await m.scm.start('kubelet');
  m.files.write(`C:\\ProgramData\\wmco\\staging\\${sha}`, data);
  const locked = await apply(m, [{ kind: 'placeFile', path: 'C:\\k\\kubelet.exe', sha256: sha }]);
  t.regex(locked.error?.message ?? '', /being used by another process \(kubelet\)/);
  t.true(m.files.read('C:\\k\\kubelet.exe')?.equals(Buffer.from('old')), 'the old binary stays');
});
