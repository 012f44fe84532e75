import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { csvImages, imageRepository, ImageDigestError, pinImages } from './pin-images.js';
import { csvObject, csvText } from './repo-files.js';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('./sync-bundle-cli.js', import.meta.url));
// Made up: no registry is reachable here.
const DIGEST = `sha256:${'0123456789abcdef'.repeat(4)}`;
const FEATURE = 'features.operators.openshift.io/disconnected';

test('imageRepository drops the tag or digest, keeping a registry port', (t) => {
  t.is(imageRepository('quay.io/wmco-ts/operator:0.1.0'), 'quay.io/wmco-ts/operator');
  t.is(imageRepository('mirror:5000/wmco/operator:0.1.0'), 'mirror:5000/wmco/operator');
  t.is(imageRepository(`mirror:5000/wmco/operator@${DIGEST}`), 'mirror:5000/wmco/operator');
  t.is(imageRepository('mirror:5000/wmco/operator'), 'mirror:5000/wmco/operator');
});

test('pinning references every image of the CSV by digest and only then claims disconnected', (t) => {
  t.is((csvObject()['metadata'] as { annotations: Record<string, string> }).annotations[FEATURE], 'false');
  const out = pinImages(csvText(), new Map([['quay.io/wmco-ts/operator', DIGEST]]));
  const csv = parse(out) as Record<string, unknown>;
  const images = csvImages(csv);
  t.is(images.length, 3);
  for (const image of images) t.is(image, `quay.io/wmco-ts/operator@${DIGEST}`);
  t.is((csv['metadata'] as { annotations: Record<string, string> }).annotations[FEATURE], 'true');
});

test('a missing or malformed digest is a clear error', (t) => {
  t.throws(() => pinImages(csvText(), new Map()), {
    instanceOf: ImageDigestError,
    message: /no digest given for quay\.io\/wmco-ts\/operator:0\.1\.0/,
  });
  t.throws(() => pinImages(csvText(), new Map([['quay.io/wmco-ts/operator', 'sha256:abc']])), {
    instanceOf: ImageDigestError,
    message: /is not sha256:<64 hex digits>/,
  });
});

test('a CSV claims disconnected only when every image is referenced by digest', (t) => {
  const csv = csvObject();
  const claims = (csv['metadata'] as { annotations: Record<string, string> }).annotations[FEATURE] === 'true';
  t.is(
    claims,
    csvImages(csv).every((i) => /@sha256:[0-9a-f]{64}$/.test(i)),
  );
});

test('sync-bundle --operator-image-digest writes the pinned CSV to --output and leaves the committed one', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-pin-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const before = csvText();
  const output = join(dir, 'csv.yaml');
  await run(process.execPath, [CLI, '--operator-image-digest', DIGEST, '--output', output]);
  const csv = parse(await readFile(output, 'utf8')) as Record<string, unknown>;
  t.true(csvImages(csv).every((i) => i.endsWith(`@${DIGEST}`)));
  t.is(csvText(), before);
  const bad = await run(process.execPath, [
    CLI,
    '--operator-image-digest',
    'latest',
    '--output',
    output,
  ]).catch((e: { code: number; stderr: string }) => e);
  t.like(bad, { code: 2 });
  t.regex((bad as { stderr: string }).stderr, /'latest' is not sha256/);
});
