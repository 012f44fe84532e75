import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { kubeletImage, peWithVersion } from '@wmco/sim';
import { readPeVersion } from './pe-version.js';

test('reads the fixed file and product versions of an image with a version resource', (t) => {
  const image = peWithVersion({ version: 'v1.36.2' }, Buffer.from('overlay'));
  t.deepEqual(readPeVersion(image), { fileVersion: '1.36.2.0', productVersion: '1.36.2.0' });
  t.is(readPeVersion(kubeletImage(Buffer.alloc(10), '1.37.1'))?.fileVersion, '1.37.1.0');
});

test('an image without a resource directory has no version', (t) => {
  const image = peWithVersion({ version: '1.36.0' });
  const opt = image.readUInt32LE(0x3c) + 24;
  image.writeUInt32LE(0, opt + 112 + 16); // IMAGE_DIRECTORY_ENTRY_RESOURCE: no resources
  t.is(readPeVersion(image), undefined);
});

test('a file that is not a PE image, or is cut short, is an error naming what is wrong', (t) => {
  t.throws(() => readPeVersion(Buffer.from('#!/bin/sh\n')), { message: /no MZ header/ });
  const image = peWithVersion({ version: '1.36.0' });
  t.throws(() => readPeVersion(image.subarray(0, 0x220), 'kubelet.exe'), {
    message: /kubelet\.exe: truncated/,
  });
  const bad = Buffer.from(image);
  bad.writeUInt32LE(0x12345678, 0x200 + 88 + 40); // the VS_FIXEDFILEINFO signature
  t.throws(() => readPeVersion(bad), { message: /bad signature/ });
});

/** A .NET runtime's System.Runtime.dll, a PE image Microsoft's tool chain wrote, when this machine has one. */
function dotnetRuntime(): { dll: string; version: string } | undefined {
  for (const root of ['/usr/share/dotnet', '/usr/lib/dotnet']) {
    const shared = join(root, 'shared', 'Microsoft.NETCore.App');
    if (!existsSync(shared)) continue;
    const version = readdirSync(shared).find((v) => existsSync(join(shared, v, 'System.Runtime.dll')));
    if (version) return { dll: join(shared, version, 'System.Runtime.dll'), version };
  }
  return undefined;
}

const runtime = dotnetRuntime();
(runtime ? test : test.skip)('reads the version of a PE image built by Microsoft’s tool chain', (t) => {
  const { dll, version } = runtime!;
  const read = readPeVersion(readFileSync(dll), dll);
  const [major, minor] = version.split('.');
  t.regex(read?.fileVersion ?? '', new RegExp(`^${major}\\.${minor}\\.\\d+\\.\\d+$`));
});
