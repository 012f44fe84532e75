import test from 'ava';
import { checkMirrorEntries, mirrorEntryProblem } from './mirror-entry-check.js';
import { mergedMirrorSets } from './mirror-sets.js';

for (const entry of [
  { source: 'mcr.microsoft.com/oss/kubernetes/pause', mirrors: ['mirror.local:5000/oss/kubernetes/pause'] },
  { source: 'registry.redhat.io', mirrors: ['10.0.0.9:5000'], mirrorSourcePolicy: 'NeverContactSource' },
  { source: 'quay.io/org', mirrors: ['mirror.local/org'], mirrorSourcePolicy: 'AllowContactingSource' },
  { source: 'docker://quay.io/org' },
  { source: 'quay.io/org', mirrors: [] },
]) {
  test(`usable mirror entry: ${JSON.stringify(entry)}`, (t) => {
    t.is(mirrorEntryProblem(entry), undefined);
  });
}

for (const [entry, why] of [
  [null, /not an object/],
  ['quay.io', /not an object/],
  [{}, /source is not a non-empty string/],
  [{ source: '' }, /source is not/],
  [{ source: '*.example.com', mirrors: ['m.local'] }, /wildcard/],
  [{ source: 'quay.io', mirrors: 'm.local' }, /mirrors is not a list/],
  [{ source: 'quay.io', mirrors: [3] }, /mirror is not a non-empty string/],
  [{ source: 'quay.io', mirrors: ['m.local/x"\n[host."evil"]'] }, /characters that are not allowed/],
  [{ source: 'quay.io', mirrors: ['-bad.local'] }, /registry host/],
  [{ source: 'quay.io', mirrorSourcePolicy: 'Sometimes' }, /unknown mirrorSourcePolicy "Sometimes"/],
  [{ source: 'quay.io', mirrorSourcePolicy: 7 }, /unknown mirrorSourcePolicy 7/],
] as const) {
  test(`unusable mirror entry: ${JSON.stringify(entry)}`, (t) => {
    t.regex(mirrorEntryProblem(entry) ?? '', why);
  });
}

test('one bad entry is skipped with a problem naming the object; the others apply', (t) => {
  const { valid, problems } = checkMirrorEntries(
    [
      { source: 'quay.io/org', mirrors: ['mirror.local/org'] },
      { source: 'registry.io', mirrors: ['m.local'], mirrorSourcePolicy: 'Bogus' },
      { source: 'docker.io', mirrors: ['m2.local'] },
    ],
    { kind: 'ImageDigestMirrorSet', name: 'idms-1' },
  );
  t.deepEqual(
    valid.map((e) => e.source),
    ['quay.io/org', 'docker.io'],
  );
  t.deepEqual(problems, [
    {
      kind: 'ImageDigestMirrorSet',
      name: 'idms-1',
      message: 'ImageDigestMirrorSet idms-1 entry 1: unknown mirrorSourcePolicy "Bogus"; skipped',
    },
  ]);
  // what remains merges without throwing (an unknown policy used to throw for every join)
  t.is(mergedMirrorSets(valid, []).length, 2);
});
