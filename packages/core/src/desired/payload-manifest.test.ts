import test from 'ava';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORE_PAYLOAD, readPayloadManifest } from './payload-manifest.js';
import { parseSha256Sums } from './sha256sum-file.js';

// payload_test.go parseShaFile.
test('sha256sum: keyed by basename, blank lines skipped', (t) => {
  const text = [
    '2aef669a32f8f238f07e27d96ed1762b2708df04919f4fea09c9f2a96a25acf6  /build/windows-machine-config-operator/windows-instance-config-daemon.exe',
    '',
    '1941470b345cb8d19a0a56c4d0ffab7edc1fdffb7f059b197be11f171f496a99  /build/windows-machine-config-operator/ovn-kubernetes/go-controller/_output/go/bin/windows/hybrid-overlay-node.exe',
    '11053881c723b1bfbd52b91e7d884049d1a2a6b08f211348dfa7231ff8950322  /build/windows-machine-config-operator/windows_exporter/windows_exporter.exe',
    '',
  ].join('\n');
  t.deepEqual(Object.fromEntries(parseSha256Sums(text)), {
    'windows-instance-config-daemon.exe': '2aef669a32f8f238f07e27d96ed1762b2708df04919f4fea09c9f2a96a25acf6',
    'hybrid-overlay-node.exe': '1941470b345cb8d19a0a56c4d0ffab7edc1fdffb7f059b197be11f171f496a99',
    'windows_exporter.exe': '11053881c723b1bfbd52b91e7d884049d1a2a6b08f211348dfa7231ff8950322',
  });
});

test('sha256sum: duplicate basename and malformed lines are errors', (t) => {
  const sha = 'a'.repeat(64);
  t.throws(() => parseSha256Sums(`${sha}  /a/x.exe\n${sha}  /b/x.exe\n`), {
    message: /line 2: x\.exe is listed twice/,
  });
  t.throws(() => parseSha256Sums(`${sha}  /a/x.exe\nnot a line\n`), { message: /line 2 is not/ });
  t.throws(() => parseSha256Sums('abc  /a/x.exe'), { message: /line 1/ });
  t.throws(() => parseSha256Sums(`${sha} /a/x.exe`), { message: /line 1/ }); // one space: not sha256sum's format
  t.throws(() => parseSha256Sums(`${sha}  /a/`), { message: /no file name/ });
});

async function payloadDir(
  t: { teardown: (f: () => Promise<void>) => void },
  skip: string[] = [],
  extra: string[] = [],
) {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-payload-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const sums: string[] = [];
  for (const [i, f] of [...CORE_PAYLOAD, ...extra.map((name) => ({ name }))].entries()) {
    const content = `content of ${f.name}`;
    sums.push(`${createHash('sha256').update(content).digest('hex')}  /build/${f.name}`);
    if (skip.includes(f.name)) continue;
    const sub = join(dir, i % 2 === 0 ? 'sub' : '');
    await mkdir(sub, { recursive: true });
    // Odd entries are shipped compressed, like upstream's image (the sum is of the uncompressed file).
    await writeFile(join(sub, i % 3 === 0 ? `${f.name}.tar.gz` : f.name), content);
  }
  await writeFile(join(dir, 'sha256sum'), sums.join('\n') + '\n');
  return dir;
}

test('payload manifest: every file with its host destination and SHA-256', async (t) => {
  const dir = await payloadDir(t, [], ['ecr-credential-provider.exe']);
  const m = await readPayloadManifest(dir, [{ name: 'ecr-credential-provider.exe', directory: 'C:\\k\\' }]);
  t.is(m.at(-1)!.destination, 'C:\\k\\ecr-credential-provider.exe');
  t.is(m.length, CORE_PAYLOAD.length + 1);
  const kubelet = m.find((e) => e.name === 'kubelet.exe')!;
  t.is(kubelet.destination, 'C:\\k\\kubelet.exe');
  t.is(kubelet.sha256, createHash('sha256').update('content of kubelet.exe').digest('hex'));
  t.is(m.find((e) => e.name === 'win-overlay.exe')!.destination, 'C:\\k\\cni\\win-overlay.exe');
  t.is(m.find((e) => e.name === 'hns.psm1')!.destination, 'C:\\Temp\\hns.psm1');
  t.is(m.find((e) => e.name === 'containerd.exe')!.destination, 'C:\\k\\containerd\\containerd.exe');
  t.is(
    m.find((e) => e.name === 'windows-exporter-webconfig.yaml')!.destination,
    'C:\\k\\tls\\windows-exporter-webconfig.yaml',
  );
  t.true(m.some((e) => e.compressed) && m.some((e) => !e.compressed));
});

test('payload manifest: missing file, missing sum, wrong sum', async (t) => {
  const dir = await payloadDir(t, ['kubelet.exe']);
  await t.throwsAsync(readPayloadManifest(dir), { message: /kubelet\.exe is missing/ });
  await t.throwsAsync(
    readPayloadManifest(dir, [{ name: 'ecr-credential-provider.exe', directory: 'C:\\k' }]),
    {
      message:
        /ecr-credential-provider\.exe is not listed in sha256sum; ecr-credential-provider\.exe is missing/,
    },
  );
  await writeFile(join(dir, 'kubelet.exe'), 'tampered');
  await t.throwsAsync(readPayloadManifest(dir), {
    message: /kubelet\.exe does not match its sha256sum entry/,
  });
  await t.throwsAsync(readPayloadManifest(join(dir, 'nope')), { message: /cannot read sha256sum/ });
});
