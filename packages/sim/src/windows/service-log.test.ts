import test from 'ava';
import { FileSystem } from './file-system.js';
import { binaryExists, type ServiceStartContext } from './service-behaviour.js';
import { serviceLogFile, withServiceLog } from './service-log.js';
import { splitCommandLine } from './command-line.js';
import { WindowsModel } from './windows-model.js';

test('the log file each operator command line names', (t) => {
  const cases: [string, string | undefined][] = [
    [
      'C:\\k\\kube-log-runner.exe -log-file=C:\\var\\log\\kube-proxy\\kube-proxy.log C:\\k\\kube-proxy.exe',
      'C:\\var\\log\\kube-proxy\\kube-proxy.log',
    ],
    [
      'C:\\k\\containerd\\containerd.exe --config c.toml --log-file C:\\var\\log\\containerd\\containerd.log',
      'C:\\var\\log\\containerd\\containerd.log',
    ],
    [
      'C:\\k\\hybrid-overlay-node.exe --node n --logfile C:\\var\\log\\hybrid-overlay\\hybrid-overlay.log',
      'C:\\var\\log\\hybrid-overlay\\hybrid-overlay.log',
    ],
    [
      'C:\\k\\csi-proxy.exe -log_file=C:\\var\\log\\csi-proxy\\csi-proxy.log -logtostderr=false',
      'C:\\var\\log\\csi-proxy\\csi-proxy.log',
    ],
    [
      'C:\\k\\windows_exporter.exe --log.file C:\\var\\log\\windows_exporter\\windows_exporter.log',
      'C:\\var\\log\\windows_exporter\\windows_exporter.log',
    ],
    ['C:\\k\\csi-proxy.exe -logtostderr=true', undefined],
  ];
  for (const [line, file] of cases) t.is(serviceLogFile(splitCommandLine(line)), file, line);
});

function context(commandLine: string, files: FileSystem, signal: AbortSignal): ServiceStartContext {
  return {
    name: 'kube-proxy',
    commandLine,
    argv: splitCommandLine(commandLine),
    host: new WindowsModel({ hostname: 'w' }),
    files,
    signal,
  };
}

test('a service appends start, failure and stop lines; a missing folder gets nothing', async (t) => {
  const files = new FileSystem();
  files.mkdirp('C:\\k');
  files.mkdirp('C:\\var\\log\\kube-proxy');
  const line = 'C:\\k\\kube-proxy.exe --log-file=C:\\var\\log\\kube-proxy\\kube-proxy.log';
  const stop = new AbortController();
  const failed = await withServiceLog(binaryExists).start(context(line, files, stop.signal));
  t.is(failed.state, 'failed');
  files.write('C:\\k\\kube-proxy.exe', Buffer.from('x'));
  await withServiceLog(binaryExists).start(context(line, files, stop.signal));
  stop.abort();
  const text = files.read('C:\\var\\log\\kube-proxy\\kube-proxy.log')?.toString() ?? '';
  const lines = text.trimEnd().split('\n');
  t.is(lines.length, 5);
  t.regex(lines[1] ?? '', /^E\d{4} \d\d:\d\d:\d\d\.\d{6} .*"kube-proxy failed to start: binary not found/);
  t.regex(lines[3] ?? '', /"kube-proxy is running"$/);
  t.regex(lines[4] ?? '', /"kube-proxy stopping"$/);
  const elsewhere = 'C:\\k\\kube-proxy.exe --log-file=C:\\var\\log\\missing\\kube-proxy.log';
  await withServiceLog(binaryExists).start(context(elsewhere, files, new AbortController().signal));
  t.false(files.isDirectory('C:\\var\\log\\missing'));
});
