import test from 'ava';
import { NODE_IP_SCRIPT } from '@wmco/core/internal';
import { WindowsModel } from '../windows-model.js';
import { defaultEvaluators } from './default-evaluators.js';
import { gcpNodeNameOf } from './host-scripts.js';

const run = (m: WindowsModel, script: string, log: string[] = []): unknown =>
  defaultEvaluators().evaluate(m, script, (s) => log.push(s));

test('NODE_IP needs a default route', (t) => {
  const m = new WindowsModel({ ipv4: '10.1.2.3' });
  t.deepEqual(run(m, ` ${NODE_IP_SCRIPT} `), { ok: true, output: '10.1.2.3' });
  m.routes.splice(0, m.routes.length);
  t.like(run(m, NODE_IP_SCRIPT), { ok: false });
});

test('hostname defaults follow the host name and DNS suffix', (t) => {
  const m = new WindowsModel({ hostname: 'WIN-A' });
  t.is(m.metadataHostname, 'win-a.internal');
  m.dnsSuffix = 'corp.example';
  t.is(m.metadataHostname, 'win-a.corp.example');
  t.like(run(m, 'Invoke-RestMethod http://169.254.169.254/latest/meta-data/local-hostname'), {
    ok: true,
    output: 'win-a.corp.example',
  });
});

test('the GCP rule: 63 characters, else the first label, else a cut', (t) => {
  t.is(gcpNodeNameOf('a'.repeat(63)), 'a'.repeat(63));
  t.is(gcpNodeNameOf(`${'a'.repeat(63)}.x`), 'a'.repeat(63));
  t.is(gcpNodeNameOf(`${'b'.repeat(64)}.x`), 'b'.repeat(63));
  t.is(gcpNodeNameOf(`abc.${'c'.repeat(70)}`), 'abc');
});

test('the Defender exclusion script needs its file and -BinPath, prints nothing, and records once', (t) => {
  const m = new WindowsModel();
  const script = 'C:\\Temp\\windows-defender-exclusion.ps1 -BinPath C:\\k\\containerd\\containerd.exe';
  t.regex(JSON.stringify(run(m, script)), /"ok":false,"error":"The term .* is not recognized/);
  m.files.mkdirp('C:\\Temp');
  m.files.write('C:\\Temp\\windows-defender-exclusion.ps1', Buffer.from('param($BinPath)'));
  t.deepEqual(run(m, script), { ok: true, output: '' });
  t.deepEqual(run(m, script), { ok: true, output: '' });
  t.deepEqual(m.defenderExclusions, ['C:\\k\\containerd\\containerd.exe']);
  t.like(run(m, 'C:\\Temp\\windows-defender-exclusion.ps1'), { ok: false });
});

test('unmodelled lines are refused with PowerShell wording and logged', (t) => {
  const m = new WindowsModel();
  const log: string[] = [];
  t.deepEqual(run(m, 'hostname', log), {
    ok: false,
    error:
      "The term 'hostname' is not recognized as the name of a cmdlet, function, script file, or operable program. " +
      'Check the spelling of the name, or if a path was included, verify that the path is correct and try again.',
  });
  t.like(run(m, 'Invoke-RestMethod -Uri http://example.com/', log), { ok: false });
  t.like(run(m, '$x = 1', log), { ok: false });
  t.deepEqual(log, ['hostname', 'Invoke-RestMethod -Uri http://example.com/', '$x = 1']);
});

test('NODE_IP with two default routes (a second NIC): the one with the lower route plus interface metric', (t) => {
  const m = new WindowsModel({ ipv4: '10.1.2.3' });
  m.addDefaultRoute({ ifIndex: 12, ipv4: '192.168.5.20', metric: 5 }, { nextHop: '192.168.5.1' });
  t.deepEqual(run(m, NODE_IP_SCRIPT), { ok: true, output: '192.168.5.20' }, '0 + 5 beats 0 + 15');
  const other = new WindowsModel({ ipv4: '10.1.2.3' });
  other.addDefaultRoute(
    { ifIndex: 12, ipv4: '192.168.5.20', metric: 5 },
    { nextHop: '192.168.5.1', routeMetric: 256 },
  );
  t.deepEqual(run(other, NODE_IP_SCRIPT), { ok: true, output: '10.1.2.3' }, '256 + 5 loses to 0 + 15');
});
