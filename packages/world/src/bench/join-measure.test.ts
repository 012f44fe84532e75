import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { realisticPayload } from '@wmco/sim';
import { inChild, MEASUREMENT_V8_FLAGS } from './join-measure.js';
import { payloadFileBytes, type JoinRun } from './join-run.js';
import { serviceNeeds } from './service-needs.js';
import { alive, gone, processesMentioning } from './process-liveness.test-helper.js';

test('the SSH throughput is measured in a process of its own, which reports its peak memory', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-join-measure-'));
  try {
    const localPath = join(dir, 'kubelet.exe.tar.gz');
    await writeFile(localPath, randomBytes(2 * 2 ** 20));
    const r = await inChild<{ sshBytesPerSec: number }>({
      task: 'ssh',
      file: { name: 'kubelet.exe', localPath, sha256: '0'.repeat(64), size: 2 * 2 ** 20 },
    });
    t.true(r.sshBytesPerSec > 1e6, `${r.sshBytesPerSec} B/s`);
    t.true(r.peakRssMiB > 10 && r.peakRssMiB < 4096, `${r.peakRssMiB} MiB`);
    // The same V8 options as every join's process.
    t.deepEqual(r.execArgv, [...MEASUREMENT_V8_FLAGS]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a measurement that fails in its process fails the bench with which one it was', async (t) => {
  const err = await t.throwsAsync(
    inChild({
      task: 'ssh',
      file: { name: 'gone', localPath: '/nonexistent/wmco/gone.tar.gz', sha256: '0'.repeat(64), size: 1 },
    }),
  );
  t.regex(err.message, /the ssh measurement failed \(exit 1\)/);
});

test('a join measurement joins the hosts with the operator in a process of its own, beside a plain ssh2 client', async (t) => {
  t.timeout(120_000);
  const cache = await mkdtemp(join(tmpdir(), 'wmco-join-run-'));
  try {
    // The realistic payload's layout and file list at 1 % of its size.
    const payload = await realisticPayload(cache, 0.01);
    const r = await inChild<{ run: JoinRun }>({
      task: 'join',
      hosts: 1,
      payloadDir: payload.dir,
      joins: 1,
      uploads: 1,
    });
    t.deepEqual(r.run.failures, []);
    t.is(r.run.hosts, 1);
    t.true(r.run.seconds > 0);
    const [work] = r.run.work;
    // One PowerShell start per join; a second when a start overran its deadline on a busy machine.
    t.true((work?.powershellStarts ?? 0) >= 1, `${work?.powershellStarts} starts`);
    const files = await payloadFileBytes(payload.dir);
    const compressed = [...files.values()].reduce((a, b) => a + b, 0);
    t.true((work?.bytes ?? 0) >= compressed, `${work?.bytes} bytes`);
    // The lower bound's view of the node: each service and the payload files its command line names.
    const needs = new Map(serviceNeeds(r.run.services[0] ?? [], files.keys()).map((n) => [n.name, n]));
    t.true(needs.get('kubelet')?.files.includes('kubelet.exe'), JSON.stringify([...needs.values()]));
    t.true(needs.get('containerd')?.files.includes('containerd.exe'));
    t.deepEqual(
      needs.get('kubelet')?.dependencies.map((d) => d.toLowerCase()),
      ['containerd'],
    );
    // The event loop's share of the join: more than nothing, at most all of it.
    t.true(r.run.eventLoopBusy > 0 && r.run.eventLoopBusy <= 1, `${r.run.eventLoopBusy}`);
    t.true(r.run.cpuSeconds > 0);
    // The hosts ran in a process of their own, measured apart from the API server's.
    t.is(r.run.hostProcesses, 1);
    t.true(r.run.hostsCpuSeconds > 0 && r.run.hostsPeakRssMiB > 0, JSON.stringify(r.run));
    t.true(r.run.hostsEventLoopBusy > 0 && r.run.hostsEventLoopBusy <= 1);
    // The operator ran in a process of its own, measured apart; a plain ssh2 client shipped the same files.
    t.true(r.run.operatorCpuSeconds > 0 && r.run.operatorPeakRssMiB > 0);
    t.is(r.run.bytesShipped, work?.bytes ?? -1);
    t.is(r.run.plain.bytes, compressed);
    t.true(r.run.plain.cpuSeconds > 0);
  } finally {
    await rm(cache, { recursive: true, force: true });
  }
});

test('a join measurement that fails leaves none of its processes running', async (t) => {
  t.timeout(120_000);
  // An empty payload folder: the world and both host processes start, then the operator refuses to start
  // (no payload manifest) and the measurement fails. Every process of it was given this folder.
  const payloadDir = await mkdtemp(join(tmpdir(), 'wmco-join-fails-'));
  try {
    const err = await t.throwsAsync(
      inChild({ task: 'join', hosts: 2, hostsPerProcess: 1, payloadDir, joins: 2, uploads: 2 }),
    );
    t.regex(err.message, /the join measurement failed \(exit 1\)/);
    const left = processesMentioning(payloadDir);
    t.true(await gone(left), `still running: ${left.filter(alive).join(', ')}`);
    t.deepEqual(processesMentioning(payloadDir), []);
  } finally {
    await rm(payloadDir, { recursive: true, force: true });
  }
});
