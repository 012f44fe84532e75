// The simulated host starts extracting a staged archive when its SFTP upload ends (the rename into place),
// over real SSH; the apply then only awaits the result. What the host does and decides is unchanged.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { converge, type HostSpec } from '@wmco/core';
import { stagedArchivePathFor, stagedPathFor } from '@wmco/core/internal';
import { tarGzOf } from '../payload/tar-gz.js';
import { extractArchive, extractionStarted } from './archive-extraction.js';
import { SHARED_FROM_BYTES } from './shared-memory.js';
import { startHostWorld } from './windows-host-fixture.js';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

function spec(path: string, data: Buffer): HostSpec {
  return {
    directories: ['C:\\k'],
    files: [{ path, sha256: sha(data) }],
    services: [],
    envVars: {},
    routes: [],
    firewallRules: [],
    features: [],
  };
}

test('an uploaded archive starts extracting when its upload ends; the apply places that result', async (t) => {
  const w = await startHostWorld();
  const dir = await mkdtemp(join(tmpdir(), 'wmco-prefetch-'));
  t.teardown(async () => {
    await w.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const data = randomBytes(SHARED_FROM_BYTES + 4096);
  const localPath = join(dir, 'kube-proxy.exe.tar.gz');
  await writeFile(localPath, await tarGzOf('kube-proxy.exe', data));
  await w.host.upload([{ sha256: sha(data), source: { localPath, format: 'tar.gz' } }]);
  const staged = w.sim.model.files.read(stagedArchivePathFor(sha(data)))!;
  t.true(staged.buffer instanceof SharedArrayBuffer, 'a large upload is kept in shared memory');
  t.true(extractionStarted(staged), 'extraction started before any apply');
  t.false(w.sim.model.files.isFile(stagedPathFor(sha(data))), 'nothing staged on the host before the apply');

  await converge(w.host, spec('C:\\k\\kube-proxy.exe', data), () => {
    throw new Error('already uploaded');
  });
  const placed = w.sim.model.files.read('C:\\k\\kube-proxy.exe');
  t.deepEqual(placed, data);
  t.is(placed, (await extractArchive(staged)).get('kube-proxy.exe'), 'the prefetched result was placed');
  t.deepEqual(w.sim.model.files.list('C:\\ProgramData\\wmco\\staging'), []);
});

test('an uncompressed staged file is not extracted', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const data = Buffer.from('plain windows_exporter.exe');
  await w.host.upload([{ sha256: sha(data), source: data }]);
  const staged = w.sim.model.files.read(stagedPathFor(sha(data)))!;
  t.deepEqual(staged, data);
  t.false(extractionStarted(staged));
});
