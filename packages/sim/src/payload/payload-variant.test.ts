import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { readPayloadManifest } from '@wmco/core';
import { payloadVariant } from './payload-variant.js';
import { realisticPayload } from './realistic-payload.js';
import { readTarGz } from './tar-gz.js';

test('a variant differs from its base in exactly one binary, in content and in sha256sum', async (t) => {
  const cache = await mkdtemp(join(tmpdir(), 'wmco-variant-'));
  t.teardown(() => rm(cache, { recursive: true, force: true }));
  const base = await realisticPayload(cache, 0.01);
  const v = await payloadVariant(base, join(cache, 'b'), 'kube-proxy.exe');
  const [a, b] = [await readPayloadManifest(base.dir), await readPayloadManifest(v.dir)];
  const differs = a.filter((e, i) => e.sha256 !== b[i]!.sha256).map((e) => e.name);
  t.deepEqual(differs, ['kube-proxy.exe']);
  const changed = v.files.find((f) => f.name === 'kube-proxy.exe')!;
  const inside = (await readTarGz(await readFile(join(v.dir, changed.archive)))).get('kube-proxy.exe')!;
  t.is(inside.length, changed.bytes);
  t.not(changed.sha256, base.files.find((f) => f.name === 'kube-proxy.exe')!.sha256);
  const kubelet = 'kube-node/kubelet.exe.tar.gz';
  t.deepEqual(await readFile(join(v.dir, kubelet)), await readFile(join(base.dir, kubelet)));
  await t.throwsAsync(payloadVariant(base, join(cache, 'c'), 'nope.exe'), { message: /no file nope.exe/ });
});
