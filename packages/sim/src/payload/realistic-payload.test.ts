import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { CORE_PAYLOAD, readPayloadManifest } from '@wmco/core';
import { kubeletImage } from './pe-version-image.js';
import { UPSTREAM_PAYLOAD_FILES, realisticContent, realisticPayload } from './realistic-payload.js';
import { readTarGz } from './tar-gz.js';

test("the full-size file list is upstream's and about 550 MB", (t) => {
  const mb = UPSTREAM_PAYLOAD_FILES.reduce((n, f) => n + f.mib * 2 ** 20, 0) / 1e6;
  t.true(mb > 530 && mb < 570, `${mb} MB`);
  const names = UPSTREAM_PAYLOAD_FILES.map((f) => f.path.split('/').pop());
  for (const f of CORE_PAYLOAD) t.true(names.includes(f.name), f.name);
  t.true(names.includes('windows-instance-config-daemon.exe'));
});

test('content is deterministic, and differs between files', (t) => {
  t.deepEqual(realisticContent('kubelet.exe', 100_000), realisticContent('kubelet.exe', 100_000));
  t.notDeepEqual(realisticContent('kubelet.exe', 100_000), realisticContent('kube-proxy.exe', 100_000));
});

test('a small-scale payload: upstream layout, sums of the uncompressed files, cached between runs', async (t) => {
  const cache = await mkdtemp(join(tmpdir(), 'wmco-realistic-'));
  t.teardown(() => rm(cache, { recursive: true, force: true }));
  const p = await realisticPayload(cache, 0.02);
  const ratio = p.compressedBytes / p.bytes;
  t.true(ratio > 0.33 && ratio < 0.42, `compressed/uncompressed ${ratio}`);
  const kubelet = p.files.find((f) => f.name === 'kubelet.exe')!;
  t.is(kubelet.archive, 'kube-node/kubelet.exe.tar.gz');
  const inside = (await readTarGz(await readFile(join(p.dir, kubelet.archive)))).get('kubelet.exe')!;
  const content = realisticContent('kubelet.exe', Math.round(122 * 0.02 * 2 ** 20));
  t.deepEqual(inside, kubeletImage(content), 'a PE image with a version resource, then the content');
  const manifest = await readPayloadManifest(p.dir);
  t.true(manifest.every((e) => e.compressed));
  t.is(manifest.find((e) => e.name === 'kubelet.exe')?.sha256, kubelet.sha256);
  const before = (await stat(join(p.dir, kubelet.archive))).mtimeMs;
  const again = await realisticPayload(cache, 0.02);
  t.deepEqual(again, p);
  t.is((await stat(join(p.dir, kubelet.archive))).mtimeMs, before, 'reused, not regenerated');
});
