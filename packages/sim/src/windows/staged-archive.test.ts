import { createHash } from 'node:crypto';
import test from 'ava';
import { HostPaths, stagedArchivePathFor, stagedPathFor } from '@wmco/core/internal';
import { tarGzOf } from '../payload/tar-gz.js';
import { expandStagedArchive } from './staged-archive.js';
import { WindowsModel } from './windows-model.js';

async function hostWithArchive(archive: Buffer, sha: string): Promise<WindowsModel> {
  const m = new WindowsModel();
  m.files.mkdirp(HostPaths.staging);
  m.files.write(stagedArchivePathFor(sha), Buffer.from(archive));
  return Promise.resolve(m);
}

test('hosts extracting the same archive at once share one result; the archives are consumed', async (t) => {
  const data = Buffer.from('hybrid-overlay-node '.repeat(5000));
  const sha = createHash('sha256').update(data).digest('hex');
  const archive = await tarGzOf('hybrid-overlay-node.exe', data);
  const hosts = await Promise.all([1, 2, 3].map(() => hostWithArchive(archive, sha)));
  await Promise.all(hosts.map((m) => expandStagedArchive(m, 'C:\\k\\hybrid-overlay-node.exe', sha)));
  const staged = hosts.map((m) => m.files.read(stagedPathFor(sha)));
  t.deepEqual(staged[0], data);
  t.is(staged[1], staged[0], 'one Buffer for all hosts');
  t.is(staged[2], staged[0]);
  for (const m of hosts) t.false(m.files.isFile(stagedArchivePathFor(sha)));
});

test('an uncompressed staged file wins; without an archive nothing happens', async (t) => {
  const sha = 'b'.repeat(64);
  const m = await hostWithArchive(Buffer.from('not even gzip'), sha);
  m.files.write(stagedPathFor(sha), Buffer.from('already staged'));
  await expandStagedArchive(m, 'C:\\k\\kubelet.exe', sha);
  t.deepEqual(m.files.read(stagedPathFor(sha)), Buffer.from('already staged'));
  const empty = new WindowsModel();
  await t.notThrowsAsync(expandStagedArchive(empty, 'C:\\k\\kubelet.exe', sha));
});
