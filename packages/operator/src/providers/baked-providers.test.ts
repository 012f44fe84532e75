import test from 'ava';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BAKED_PROVIDERS_FILE,
  BakedProvidersError,
  loadBakedProviders,
  loadBuiltinProviders,
  parseBakedProviders,
} from './baked-providers.js';
import { BUILTIN_PROVIDER_IDS, BUILTIN_PROVIDER_LOADERS } from './builtin-providers.js';

test('a checkout bakes in all six providers, in listing order', async (t) => {
  const ids = parseBakedProviders(await readFile(BAKED_PROVIDERS_FILE, 'utf8'), BAKED_PROVIDERS_FILE);
  t.deepEqual(ids, [...BUILTIN_PROVIDER_IDS]);
  t.deepEqual(ids, ['aws', 'azure', 'gcp', 'vsphere', 'nutanix', 'none']);
  const providers = await loadBakedProviders();
  t.deepEqual(
    providers.map((p) => p.id),
    ids,
  );
});

test('a build with fewer providers loads only those', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-baked-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'baked-providers.json');
  await writeFile(file, JSON.stringify({ providers: ['none', 'vsphere'] }));
  t.deepEqual(
    (await loadBakedProviders(file)).map((p) => p.id),
    ['none', 'vsphere'],
  );
});

test('a bad list is an error that names the file and the problem', (t) => {
  const cases: [string, RegExp][] = [
    ['{', /f\.json: not valid JSON/],
    ['{"providers": []}', /at least one provider id/],
    ['[]', /expected \{"providers"/],
    ['null', /expected \{"providers"/],
    [
      '{"providers": ["aws", "openstack"]}',
      /unknown provider "openstack"; known: aws, azure, gcp, vsphere, nutanix, none/,
    ],
    ['{"providers": ["aws", 3]}', /unknown provider 3/],
    ['{"providers": ["gcp", "gcp"]}', /provider "gcp" is listed twice/],
  ];
  for (const [text, message] of cases) {
    t.throws(() => parseBakedProviders(text, 'f.json'), { instanceOf: BakedProvidersError, message }, text);
  }
});

test('a missing list file is a clear error', async (t) => {
  await t.throwsAsync(loadBakedProviders('/nonexistent/baked-providers.json'), {
    message: /\/nonexistent\/baked-providers\.json: cannot read the list of built-in providers/,
  });
});

test('a listed provider whose package is not in the image is a clear error', async (t) => {
  const loaders = {
    ...BUILTIN_PROVIDER_LOADERS,
    azure: () =>
      Promise.reject(new Error("Cannot find package '@wmco/provider-azure' imported from /app/dist")),
  };
  await t.throwsAsync(loadBuiltinProviders(['aws', 'azure'], loaders), {
    message:
      /@wmco\/provider-azure is listed in baked-providers\.json but cannot be loaded \(Cannot find package.*rebuild the image with this provider in PROVIDERS/,
  });
});
