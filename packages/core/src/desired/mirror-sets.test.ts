import test from 'ava';
import {
  extractMirrorURL,
  extractRegistryOrgPath,
  mergedMirrorSets,
  mergeMirrors,
  mergeMirrorSets,
  type MirrorSet,
} from './mirror-sets.js';

// Vectors: registries_test.go (reference §4.2 "Registry mirrors").
const A = 'AllowContactingSource';
const N = 'NeverContactSource';

test('getMergedMirrorSets vectors', (t) => {
  t.deepEqual(mergedMirrorSets([], []), []);
  t.deepEqual(mergedMirrorSets([{ source: 'source1', mirrors: ['mirror1'], mirrorSourcePolicy: A }], []), [
    { source: 'source1', mirrors: [{ host: 'mirror1', resolveTags: false }], mirrorSourcePolicy: A },
  ]);
  t.deepEqual(mergedMirrorSets([], [{ source: 'source2', mirrors: ['mirror2'], mirrorSourcePolicy: A }]), [
    { source: 'source2', mirrors: [{ host: 'mirror2', resolveTags: true }], mirrorSourcePolicy: A },
  ]);
  // Unset policy: the API default (AllowContactingSource).
  t.deepEqual(
    mergedMirrorSets(
      [{ source: 'https://source1.local:5000', mirrors: ['mirror1'] }],
      [{ source: 'source2', mirrors: ['mirror2'] }],
    ),
    [
      {
        source: 'source1.local:5000',
        mirrors: [{ host: 'mirror1', resolveTags: false }],
        mirrorSourcePolicy: A,
      },
      { source: 'source2', mirrors: [{ host: 'mirror2', resolveTags: true }], mirrorSourcePolicy: A },
    ],
  );
  t.deepEqual(
    mergedMirrorSets(
      [
        {
          source: 'vmc.ci.openshift.org/ci-op/pipeline',
          mirrors: ['devcluster.openshift.com:5000/pipeline'],
          mirrorSourcePolicy: A,
        },
      ],
      [
        {
          source: 'docker://mcr.microsoft.com/oss/kubernetes/pause',
          mirrors: ['quay.io/testuser/oss/kubernetes/pause'],
          mirrorSourcePolicy: A,
        },
        {
          source: 'mcr.microsoft.com/powershell',
          mirrors: ['quay.io/testuser/testnamespace/powershell'],
          mirrorSourcePolicy: A,
        },
        {
          source: 'registry.k8s.io/sig-storage/csi-provisioner',
          mirrors: ['devcluster.openshift.com:5000/sig-storage/csi-provisioner'],
          mirrorSourcePolicy: A,
        },
        {
          source: 'registry.access.redhat.com/ubi9/ubi-minimal',
          mirrors: ['devcluster.openshift.com:5000/ubi9/ubi-minimal'],
          mirrorSourcePolicy: A,
        },
        {
          source: 'registry.access.redhat.com/ubi8/ubi-minimal',
          mirrors: ['random.io/ubi8/ubi-minimal'],
          mirrorSourcePolicy: N,
        },
      ],
    ),
    [
      {
        source: 'mcr.microsoft.com',
        mirrors: [
          { host: 'quay.io/testuser', resolveTags: true },
          { host: 'quay.io/testuser/testnamespace', resolveTags: true },
        ],
        mirrorSourcePolicy: A,
      },
      {
        source: 'registry.access.redhat.com',
        mirrors: [
          { host: 'devcluster.openshift.com:5000', resolveTags: true },
          { host: 'random.io', resolveTags: true },
        ],
        mirrorSourcePolicy: N,
      },
      {
        source: 'registry.k8s.io',
        mirrors: [{ host: 'devcluster.openshift.com:5000', resolveTags: true }],
        mirrorSourcePolicy: A,
      },
      {
        source: 'vmc.ci.openshift.org',
        mirrors: [{ host: 'devcluster.openshift.com:5000', resolveTags: false }],
        mirrorSourcePolicy: A,
      },
    ],
  );
});

test('an unknown policy is an error', (t) => {
  t.throws(() => mergedMirrorSets([{ source: 's', mirrors: ['m'], mirrorSourcePolicy: 'Sometimes' }], []), {
    message: /ImageDigestMirrorSet source s: unknown mirrorSourcePolicy "Sometimes"/,
  });
});

test('an unset policy no longer hides NeverContactSource (QUIRK 7 fixed)', (t) => {
  const [set] = mergedMirrorSets(
    [{ source: 's', mirrors: ['m1'] }],
    [{ source: 's', mirrors: ['m2'], mirrorSourcePolicy: N }],
  );
  t.is(set!.mirrorSourcePolicy, N);
});

const S = 'registry.access.redhat.com/ubi9/ubi-minimal';
const Q = 'quay.io/openshift-release-dev/ocp-release';
const set = (
  source: string,
  mirrors: [string, boolean][],
  policy: MirrorSet['mirrorSourcePolicy'] = A,
): MirrorSet => ({
  source,
  mirrors: mirrors.map(([host, resolveTags]) => ({ host, resolveTags })),
  mirrorSourcePolicy: policy,
});

test('mergeMirrorSets vectors', (t) => {
  t.deepEqual(mergeMirrorSets([]), []);
  t.deepEqual(
    mergeMirrorSets([
      set(S, [
        ['example.io/example/ubi-minimal', false],
        ['example.com/example/ubi-minimal', true],
      ]),
      set(S, [
        ['mirror.example.net/image', false],
        ['mirror.example.com/redhat', true],
      ]),
    ]),
    [
      set(S, [
        ['example.com/example/ubi-minimal', true],
        ['example.io/example/ubi-minimal', false],
        ['mirror.example.com/redhat', true],
        ['mirror.example.net/image', false],
      ]),
    ],
  );
  t.deepEqual(mergeMirrorSets([set(S, [], N), set(S, [], A), set(Q, [], A), set(Q, [], A)]), [
    set(Q, [], A),
    set(S, [], N),
  ]);
  t.deepEqual(
    mergeMirrorSets([
      set(S, [
        ['mirror.example.net/image', false],
        ['mirror.example.com/redhat', false],
      ]),
      set(S, [
        ['mirror.example.net/image', false],
        ['mirror.example.com/redhat', true],
      ]),
    ]),
    [
      set(S, [
        ['mirror.example.com/redhat', true],
        ['mirror.example.net/image', false],
      ]),
    ],
  );
  t.deepEqual(
    mergeMirrorSets([
      set(S, [
        ['mirror.example.com/redhat', false],
        ['mirror.example.net/image', false],
      ]),
      set(Q, [['mirror.registry.com:443/ocp/release', false]]),
    ]),
    [
      set(Q, [['mirror.registry.com:443/ocp/release', false]]),
      set(S, [
        ['mirror.example.com/redhat', false],
        ['mirror.example.net/image', false],
      ]),
    ],
  );
});

test('mergeMirrors vectors', (t) => {
  const m = (host: string, resolveTags: boolean) => ({ host, resolveTags });
  t.deepEqual(mergeMirrors([], []), []);
  t.deepEqual(mergeMirrors([m('openshift.com', false)], []), [m('openshift.com', false)]);
  t.deepEqual(mergeMirrors([m('openshift.com', false)], [m('openshift.com', false)]), [
    m('openshift.com', false),
  ]);
  t.deepEqual(mergeMirrors([m('openshift.com', false)], [m('openshift.com', true)]), [
    m('openshift.com', true),
  ]);
  t.deepEqual(mergeMirrors([m('redhat.com', false)], [m('openshift.com', true)]), [
    m('openshift.com', true),
    m('redhat.com', false),
  ]);
  const a = [m('redhat.com', false), m('openshift.com', true), m('example.test.io', true)];
  t.deepEqual(mergeMirrors(a, [m('openshift.com', true), m('example.test.io', true)]), [
    m('example.test.io', true),
    m('openshift.com', true),
    m('redhat.com', false),
  ]);
});

test('extractMirrorURL vectors', (t) => {
  for (const [source, mirror, expected] of [
    ['example.com/path/to/resource', 'example.com/path/to/resource', ''],
    ['example.com/path/to/resource', 'example.org/path/to/resource', 'example.org'],
    ['example.com/path/to/resource/x', 'example.com/path/to/resourceax', 'example.com/path/to/resourceax'],
    [
      'mcr.microsoft.com/powershell:lts-nanoserver-ltsc2022',
      'quay.io/powershell:23',
      'quay.io/powershell:23',
    ],
    [
      'mcr.microsoft.com/powershell:lts-nanoserver-ltsc2022',
      'quay.io/powershell:lts-nanoserver-ltsc2022',
      'quay.io',
    ],
    [
      'mcr.microsoft.com/powershell:lts-nanoserver-ltsc2022',
      'quay.io/random_namespace/powershell:lts-nanoserver-ltsc2022',
      'quay.io/random_namespace',
    ],
    [
      'mcr.microsoft.com/windows/servercore:ltsc2022',
      'quay.io/mohashai/random_namespace/windows/servercore:ltsc2022',
      'quay.io/mohashai/random_namespace',
    ],
    ['foo1/fah/different/foo2', 'foo1/fah/something/foo2', 'foo1/fah/something'],
    ['foo1/fah/hello/different/foo2', 'foo1/fah/something/foo2', 'foo1/fah/something'],
    ['foo1/fah/different/foo2', 'foo1/fah/hello/something/foo2', 'foo1/fah/hello/something'],
  ] as const) {
    t.is(extractMirrorURL(source, mirror), expected, `${source} ${mirror}`);
  }
});

test('extractRegistryOrgPath vectors', (t) => {
  t.is(extractRegistryOrgPath('registry.local/org'), 'org');
  t.is(extractRegistryOrgPath('registry.local/org/sub_org'), 'org/sub_org');
  t.is(extractRegistryOrgPath('registry.local'), '');
});
