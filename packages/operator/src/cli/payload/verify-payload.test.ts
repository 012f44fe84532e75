import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { kubeletImage, realisticContent, realisticPayload, SIM_KUBELET_VERSION, tarGzOf } from '@wmco/sim';
import { verifyPayload } from './verify-payload.js';

let cache = '';
let generated = '';
test.before(async () => {
  cache = await mkdtemp(join(tmpdir(), 'wmco-verify-'));
  generated = (await realisticPayload(cache, 0.02)).dir;
});
test.after.always(() => rm(cache, { recursive: true, force: true }));

/** The benchmark's realistic payload (upstream's layout) at 2 % of its size, copied to a folder of its own. */
async function payload(t: { title: string }): Promise<string> {
  const dir = join(cache, createHash('sha256').update(t.title).digest('hex').slice(0, 12));
  await cp(generated, dir, { recursive: true });
  return dir;
}

async function replaceKubelet(dir: string, kubelet: Buffer): Promise<void> {
  await writeFile(join(dir, 'kube-node/kubelet.exe.tar.gz'), await tarGzOf('kubelet.exe', kubelet));
  const sha = createHash('sha256').update(kubelet).digest('hex');
  const sums = await readFile(join(dir, 'sha256sum'), 'utf8');
  await writeFile(join(dir, 'sha256sum'), sums.replace(/^\S+(?= {2}\S*\/kubelet\.exe$)/m, sha));
}

test('accepts the realistic benchmark payload, kubelet version included', async (t) => {
  const dir = await payload(t);
  const report = await verifyPayload(dir, 'v1.36.4');
  t.deepEqual(report.bad, []);
  const kubelet = report.files.find((f) => f.name === 'kubelet.exe');
  t.is(kubelet?.path, 'kube-node/kubelet.exe.tar.gz');
  t.regex(kubelet?.detail ?? '', /kubelet version 1\.36\.0\.0 fits v1\.36\.4/);
  t.is(report.files.find((f) => f.name === 'generated.json')?.status, 'extra');
  t.true(report.files.filter((f) => f.name !== 'generated.json').every((f) => f.status === 'ok'));
  t.is(SIM_KUBELET_VERSION, 'v1.36.0');
});

test('refuses a tampered file, naming it', async (t) => {
  const dir = await payload(t);
  const tampered = Buffer.from(realisticContent('win-bridge.exe', 1000));
  await writeFile(join(dir, 'cni/win-bridge.exe.tar.gz'), await tarGzOf('win-bridge.exe', tampered));
  const report = await verifyPayload(dir, 'v1.36.4');
  t.deepEqual(report.bad, ['win-bridge.exe']);
  t.regex(report.files.find((f) => f.name === 'win-bridge.exe')!.detail, /^sha256 \w+, sha256sum lists \w+$/);
});

test('refuses a kubelet of a minor version the cluster cannot run, even when its sum is right', async (t) => {
  const dir = await payload(t);
  await replaceKubelet(dir, kubeletImage(Buffer.from('kubelet'), 'v1.37.1'));
  const report = await verifyPayload(dir, 'v1.36.4');
  t.deepEqual(report.bad, ['kubelet.exe'], 'a kubelet newer than the API server');
  const kubelet = report.files.find((f) => f.name === 'kubelet.exe')!;
  t.is(kubelet.status, 'wrong-version');
  t.regex(
    kubelet.detail,
    /kubelet version 1\.37\.1\.0, the cluster runs Kubernetes v1\.36\.4 \(v1\.36 or v1\.35 needed\)/,
  );
  t.deepEqual((await verifyPayload(dir, 'v1.39.0')).bad, ['kubelet.exe'], 'two minors older');
  t.deepEqual((await verifyPayload(dir, 'v2.37.0')).bad, ['kubelet.exe'], 'another major');
  t.deepEqual((await verifyPayload(dir, 'v1.37.2')).bad, [], 'the same minor');
  t.deepEqual((await verifyPayload(dir, 'v1.38.0')).bad, [], 'one minor older, as during a cluster upgrade');
});

test('a kubelet without a version resource passes with a note; one that is no PE image does not', async (t) => {
  const dir = await payload(t);
  const image = kubeletImage(Buffer.from('kubelet'), 'v1.30.0');
  image.writeUInt32LE(0, image.readUInt32LE(0x3c) + 24 + 112 + 16); // no resource directory
  await replaceKubelet(dir, image);
  const kubelet = (await verifyPayload(dir, 'v1.36.4')).files.find((f) => f.name === 'kubelet.exe')!;
  t.is(kubelet.status, 'ok');
  t.regex(kubelet.detail, /no version resource, version not checked/);
  await replaceKubelet(dir, Buffer.from('#!/bin/sh\n'));
  const script = (await verifyPayload(dir, 'v1.36.4')).files.find((f) => f.name === 'kubelet.exe')!;
  t.is(script.status, 'unreadable', 'a kubelet.exe that is no PE image at all is refused');
});

test('refuses a missing file, a file sha256sum does not list, and a missing sha256sum', async (t) => {
  const dir = await payload(t);
  await rm(join(dir, 'csi-proxy/csi-proxy.exe.tar.gz'));
  const sums = await readFile(join(dir, 'sha256sum'), 'utf8');
  await writeFile(join(dir, 'sha256sum'), sums.replace(/^.*\/hns\.psm1\n/m, ''));
  const report = await verifyPayload(dir, 'v1.36.4');
  t.deepEqual(report.bad.toSorted(), ['csi-proxy.exe', 'hns.psm1']);
  t.is(report.files.find((f) => f.name === 'csi-proxy.exe')?.status, 'missing');
  t.is(report.files.find((f) => f.name === 'hns.psm1')?.status, 'unlisted');
  await rm(join(dir, 'sha256sum'));
  t.deepEqual((await verifyPayload(dir, 'v1.36.4')).bad, ['sha256sum']);
});

test('a damaged archive is reported, not thrown', async (t) => {
  const dir = await payload(t);
  const archive = join(dir, 'kube-node/kube-proxy.exe.tar.gz');
  await writeFile(archive, (await readFile(archive)).subarray(0, 5000));
  const report = await verifyPayload(dir, 'v1.36.4');
  t.deepEqual(report.bad, ['kube-proxy.exe']);
  t.is(report.files.find((f) => f.name === 'kube-proxy.exe')?.status, 'unreadable');
});
