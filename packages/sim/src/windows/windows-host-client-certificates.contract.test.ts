// hybrid-overlay's old client certificates (issue 29, item 3): a converge keeps the two lexicographically
// newest `ovnkube-client-*.pem` of C:\k\cni\config, as upstream WICD does after each reconcile, and removes
// the others; its `-current.pem` link goes as a link or stays, never its target. On the model and, where
// pwsh is installed, on the real WmcoHost.psm1 (the PowerShell engine).
import test from 'ava';
import { converge, type HostSpec } from '@wmco/core';
import { findPwsh } from '@wmco/core/internal';
import { Payload, nodeSpec, startHostWorld } from './windows-host-fixture.js';

const pwsh = findPwsh(process.env);
const engines: [string, string | undefined][] = [
  ['model', undefined],
  ...('path' in pwsh ? [['PowerShell engine', pwsh.path] as [string, string]] : []),
];
const DIR = 'C:\\k\\cni\\config';
const cert = (time: string): string => `ovnkube-client-${time}.pem`;
const DAYS = ['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27'].map((d) => cert(`${d}-10-00-00`));

const certificates = (names: readonly string[]): string[] =>
  names.filter((n) => n.startsWith('ovnkube-client-')).sort();

for (const [engine, path] of engines) {
  test(`${engine}: a converge keeps the two newest client certificates and the other files`, async (t) => {
    const w = await startHostWorld(path === undefined ? {} : { pwsh: path });
    t.teardown(() => w.stop());
    const files = w.sim.model.files;
    const payload = new Payload();
    const spec: HostSpec = { ...nodeSpec(payload), keptClientCertificates: 2 };
    await converge(w.host, spec, payload.content);
    files.mkdirp(DIR);
    for (const name of DAYS) files.write(`${DIR}\\${name}`, Buffer.from(`cert ${name}`));
    files.write(`${DIR}\\cni.conf`, Buffer.from('{}'));
    files.link(`${DIR}\\${cert('current')}`, `${DIR}\\${DAYS[3]!}`, 'symlink');

    const first = await converge(w.connect(), spec, payload.content);
    t.deepEqual(first.before.clientCertificates?.slice().sort(), [...DAYS, cert('current')].sort());
    t.deepEqual(
      first.plan.steps.map((s) => (s.kind === 'removeClientCertificate' ? s.name : s.kind)),
      DAYS.slice(0, 3),
    );
    const left = files.list(DIR).map((e) => e.name);
    t.deepEqual(certificates(left), [DAYS[3]!, cert('current')].sort());
    t.true(left.includes('cni.conf'), 'the CNI config stays');
    t.is(files.read(`${DIR}\\${cert('current')}`)?.toString(), `cert ${DAYS[3]!}`, 'the link still works');

    const again = await converge(w.connect(), spec, payload.content);
    t.deepEqual(again.plan.steps, [], 'nothing left to prune');
  });
}
