import test from 'ava';
import { WindowsModel } from './windows-model.js';

const CONFIG =
  "tls_server_config:\n  cert_file: 'C:\\k\\tls\\certs\\tls.crt'\n  key_file: 'C:\\k\\tls\\certs\\tls.key'\n";
const CMD = 'C:\\k\\windows_exporter.exe --web.config.file C:\\k\\tls\\windows-exporter-webconfig.yaml';

function host(config?: string): WindowsModel {
  // 10.0.0.10 is not a local address here: a TLS config that is usable still cannot be served.
  const m = new WindowsModel();
  m.files.mkdirp('C:\\k\\tls');
  m.files.write('C:\\k\\windows_exporter.exe', Buffer.from('exe'));
  if (config !== undefined) m.files.write('C:\\k\\tls\\windows-exporter-webconfig.yaml', Buffer.from(config));
  m.scm.create({
    name: 'windows_exporter',
    commandLine: CMD,
    startType: 'auto',
    dependencies: [],
    description: 'x',
  });
  return m;
}

test('no web config: the service fails to start, naming the file', async (t) => {
  const m = host();
  await t.throwsAsync(m.scm.start('windows_exporter'), {
    message: /file not found: C:\\k\\tls\\windows-exporter-webconfig\.yaml/,
  });
});

test('a web config without TLS files (the stand-in payload): running, serving nothing, and saying why', async (t) => {
  const m = host('wmco-sim stand-in bytes');
  await m.scm.start('windows_exporter');
  t.is(m.scm.get('windows_exporter')?.state, 'running');
  t.like(m.listeners.get('windows_exporter'), { state: 'not-serving' });
});

test('TLS files named but not delivered: running without a listener, the missing files named', async (t) => {
  const m = host(CONFIG);
  await m.scm.start('windows_exporter');
  const l = m.listeners.get('windows_exporter');
  t.is(l?.state, 'not-serving');
  t.regex(
    l?.state === 'not-serving' ? l.reason : '',
    /certificate or key missing: C:\\k\\tls\\certs\\tls\.crt/,
  );
});
