import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { HostOperationError, converge, type HostSpec, type UploadFile } from '@wmco/core';
import { stagedArchivePathFor } from '@wmco/core/internal';
import { tarGzOf } from '../payload/tar-gz.js';
import { asJoinedBefore, startHostWorld } from './windows-host-fixture.js';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Writes `<name>.tar.gz` holding `data` under `entry` (default: the same name) into a temp folder. */
async function archive(name: string, data: Buffer, entry = name): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-compressed-'));
  const path = join(dir, `${name}.tar.gz`);
  await writeFile(path, await tarGzOf(entry, data));
  return path;
}

function spec(files: { path: string; sha256: string }[]): HostSpec {
  return {
    directories: ['C:\\k'],
    files,
    services: [],
    envVars: {},
    routes: [],
    firewallRules: [],
    features: [],
  };
}

const kubelet = Buffer.from('kubelet.exe v1 '.repeat(4000));
const proxy = Buffer.from('kube-proxy.exe v1 '.repeat(4000));

test('a compressed file is sent compressed, extracted on the host and placed with its uncompressed hash', async (t) => {
  const w = await startHostWorld();
  const paths = [await archive('kubelet.exe', kubelet), await archive('kube-proxy.exe', proxy)];
  t.teardown(async () => {
    await w.stop();
    for (const p of paths) await rm(join(p, '..'), { recursive: true, force: true });
  });
  const content = (s: string): UploadFile['source'] => ({
    localPath: s === sha(kubelet) ? paths[0]! : paths[1]!,
    format: 'tar.gz',
  });
  const files = [
    { path: 'C:\\k\\kubelet.exe', sha256: sha(kubelet) },
    { path: 'C:\\k\\kube-proxy.exe', sha256: sha(proxy) },
  ];
  const first = await converge(w.host, spec(files), content);
  const compressed =
    (await tarGzOf('kubelet.exe', kubelet)).length + (await tarGzOf('kube-proxy.exe', proxy)).length;
  t.is(first.upload.bytesSent, compressed, 'the archives crossed the link, not the files');
  t.true(compressed < (kubelet.length + proxy.length) / 10);
  t.deepEqual(w.sim.model.files.read('C:\\k\\kubelet.exe'), kubelet);
  t.deepEqual(w.sim.model.files.read('C:\\k\\kube-proxy.exe'), proxy);
  t.deepEqual(w.sim.model.files.list('C:\\ProgramData\\wmco\\staging'), [], 'nothing left in staging');

  // One changed binary: only its archive is sent; the matching one is skipped by its uncompressed hash.
  const kubelet2 = Buffer.from('kubelet.exe v2 '.repeat(4000));
  paths.push(await archive('kubelet.exe', kubelet2));
  const second = await converge(
    w.host,
    spec([{ path: 'C:\\k\\kubelet.exe', sha256: sha(kubelet2) }, files[1]!]),
    () => ({ localPath: paths[2]!, format: 'tar.gz' }),
  );
  t.is(second.upload.bytesSent, (await tarGzOf('kubelet.exe', kubelet2)).length);
  t.deepEqual(
    second.plan.steps.map((s) => s.kind),
    ['placeFile'],
  );
  t.deepEqual(w.sim.model.files.read('C:\\k\\kubelet.exe'), kubelet2);
});

test('an archive whose file does not match its hash is refused and leaves nothing behind', async (t) => {
  const w = await startHostWorld();
  const wrong = await archive('kubelet.exe', Buffer.from('not the kubelet that sha256sum names'));
  const unnamed = await archive('kube-proxy.exe', proxy, 'other.exe');
  t.teardown(async () => {
    await w.stop();
    for (const p of [wrong, unnamed]) await rm(join(p, '..'), { recursive: true, force: true });
  });
  w.sim.model.files.mkdirp('C:\\k');
  w.sim.model.files.write('C:\\k\\kubelet.exe', Buffer.from('the old kubelet'));
  asJoinedBefore(w);
  const err = await t.throwsAsync(
    converge(w.host, spec([{ path: 'C:\\k\\kubelet.exe', sha256: sha(kubelet) }]), () => ({
      localPath: wrong,
      format: 'tar.gz',
    })),
    { instanceOf: HostOperationError },
  );
  t.regex(
    err.message,
    /staged file for 'C:\\k\\kubelet\.exe' has SHA-256 '[0-9a-f]{64}', expected '[0-9a-f]{64}'/,
  );
  t.deepEqual(w.sim.model.files.read('C:\\k\\kubelet.exe'), Buffer.from('the old kubelet'), 'old file kept');
  t.deepEqual(
    w.sim.model.files.list('C:\\k').map((e) => e.name),
    ['kubelet.exe'],
    'no .wmco-new file',
  );
  t.deepEqual(w.sim.model.files.list('C:\\ProgramData\\wmco\\staging'), [], 'archive and file removed');

  const missing = await t.throwsAsync(
    converge(w.host, spec([{ path: 'C:\\k\\kube-proxy.exe', sha256: sha(proxy) }]), () => ({
      localPath: unnamed,
      format: 'tar.gz',
    })),
  );
  t.regex(
    missing.message,
    /the archive for 'C:\\k\\kube-proxy\.exe' does not hold a file named 'kube-proxy\.exe'/,
  );
  t.false(w.sim.model.files.isFile(stagedArchivePathFor(sha(proxy))));
  t.false(w.sim.model.files.isFile('C:\\k\\kube-proxy.exe'));
});

test('a staged archive counts as staged: a retry after a failed apply sends nothing again', async (t) => {
  const w = await startHostWorld();
  const path = await archive('kubelet.exe', kubelet);
  t.teardown(async () => {
    await w.stop();
    await rm(join(path, '..'), { recursive: true, force: true });
  });
  const upload = await w.host.upload([
    { sha256: sha(kubelet), source: { localPath: path, format: 'tar.gz' } },
  ]);
  t.deepEqual(upload.uploaded, [sha(kubelet)]);
  t.true(w.sim.model.files.isFile(stagedArchivePathFor(sha(kubelet))));
  const observed = await w.host.observe({
    directories: [],
    files: [],
    services: [],
    envVars: [],
    firewallRules: [],
  });
  t.deepEqual(observed.staged, [sha(kubelet)]);
  const again = await w.host.upload([
    { sha256: sha(kubelet), source: { localPath: path, format: 'tar.gz' } },
  ]);
  t.deepEqual(again.skipped, [sha(kubelet)]);
  t.is(again.bytesSent, 0);
  const done = await converge(w.host, spec([{ path: 'C:\\k\\kubelet.exe', sha256: sha(kubelet) }]), () => {
    throw new Error('nothing should be uploaded');
  });
  t.is(done.upload.bytesSent, 0);
  t.deepEqual(w.sim.model.files.read('C:\\k\\kubelet.exe'), kubelet);
});

test('a damaged archive (not gzip) is refused with the extraction error', async (t) => {
  const w = await startHostWorld();
  const dir = await mkdtemp(join(tmpdir(), 'wmco-compressed-'));
  const path = join(dir, 'kubelet.exe.tar.gz');
  await writeFile(path, Buffer.from('this is not gzip'));
  t.teardown(async () => {
    await w.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const err = await t.throwsAsync(
    converge(w.host, spec([{ path: 'C:\\k\\kubelet.exe', sha256: sha(kubelet) }]), () => ({
      localPath: path,
      format: 'tar.gz',
    })),
  );
  t.regex(err.message, /could not extract the archive for 'C:\\k\\kubelet\.exe'/);
  t.deepEqual(w.sim.model.files.list('C:\\ProgramData\\wmco\\staging'), []);
  t.false(w.sim.model.files.isFile('C:\\k\\kubelet.exe'));
});
