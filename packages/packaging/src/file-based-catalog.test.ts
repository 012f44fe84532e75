import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { CATALOG_FILE, catalogFor } from './catalog-file.js';
import { csvObject, csvText } from './repo-files.js';

type Doc = Record<string, unknown> & { schema: string; name: string };

function committed(): Doc[] {
  return parseAllDocuments(readFileSync(CATALOG_FILE, 'utf8')).map((d) => d.toJS() as Doc);
}

test('the committed catalog is the one generated from bundle/ (run sync-bundle after changing the bundle)', (t) => {
  t.is(readFileSync(CATALOG_FILE, 'utf8'), catalogFor(csvText()));
});

test('one olm.package whose default channel exists; every channel entry is a bundle of the catalog', (t) => {
  const docs = committed();
  const packages = docs.filter((d) => d.schema === 'olm.package');
  t.is(packages.length, 1);
  const channels = docs.filter((d) => d.schema === 'olm.channel');
  const bundles = new Set(docs.filter((d) => d.schema === 'olm.bundle').map((d) => d.name));
  t.deepEqual(
    channels.map((c) => c.name),
    ['preview', 'stable'],
  );
  t.true(channels.some((c) => c.name === packages[0]?.['defaultChannel']));
  for (const c of channels) {
    t.is(c['package'], packages[0]?.name);
    for (const e of c['entries'] as { name: string }[]) t.true(bundles.has(e.name), `${c.name}: ${e.name}`);
  }
});

test('the olm.bundle carries the CSV version, its olm.maxOpenShiftVersion and its images', (t) => {
  const csv = csvObject() as {
    metadata: { name: string; annotations: Record<string, string> };
    spec: { version: string; relatedImages: { image: string }[] };
  };
  const bundle = committed().find((d) => d.schema === 'olm.bundle')!;
  t.is(bundle.name, csv.metadata.name);
  const props = bundle['properties'] as { type: string; value: unknown }[];
  t.deepEqual(props.find((p) => p.type === 'olm.package')?.value, {
    packageName: 'windows-machine-config-operator',
    version: csv.spec.version,
  });
  const max = JSON.parse(csv.metadata.annotations['olm.properties'] ?? '[]') as {
    type: string;
    value: string;
  }[];
  t.is(props.find((p) => p.type === 'olm.maxOpenShiftVersion')?.value, max[0]?.value);
  const images = (bundle['relatedImages'] as { image: string }[]).map((r) => r.image);
  t.deepEqual(images, [bundle['image'], ...csv.spec.relatedImages.map((r) => r.image)]);
});
