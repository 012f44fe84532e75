import test from 'ava';
import { parse } from 'yaml';
import {
  awsImageCredentialProvider,
  rewriteCredentialProviderConfig,
} from './aws-image-credential-provider.js';
import { CredentialProviderConfigError } from './credential-provider-config-error.js';

const LINUX_CONFIG = `apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
# the ECR plugin
providers:
  - name: ecr-credential-provider
    matchImages:
      - "*.dkr.ecr.*.amazonaws.com"
      - "*.dkr.ecr-fips.*.amazonaws.com"
    defaultCacheDuration: "12h"
    apiVersion: credentialprovider.kubelet.k8s.io/v1
`;

test('rewrites the provider name to end in .exe and keeps everything else', (t) => {
  const out = rewriteCredentialProviderConfig(LINUX_CONFIG);
  t.is(out, LINUX_CONFIG.replace('name: ecr-credential-provider\n', 'name: ecr-credential-provider.exe\n'));
  const doc = parse(out) as { providers: { matchImages: string[] }[] };
  t.deepEqual(doc.providers[0]?.matchImages, ['*.dkr.ecr.*.amazonaws.com', '*.dkr.ecr-fips.*.amazonaws.com']);
});

test('leaves names that already end in .exe (any case) alone', (t) => {
  const config = 'providers:\n  - name: a.exe\n  - name: b.EXE\n  - name: c\n';
  t.is(
    rewriteCredentialProviderConfig(config),
    'providers:\n  - name: a.exe\n  - name: b.EXE\n  - name: c.exe\n',
  );
});

test('is idempotent', (t) => {
  const once = rewriteCredentialProviderConfig(LINUX_CONFIG);
  t.is(rewriteCredentialProviderConfig(once), once);
});

test('an empty providers list stays empty', (t) => {
  t.is(rewriteCredentialProviderConfig('providers: []\n'), 'providers: []\n');
});

const malformed: readonly [string, string, RegExp][] = [
  ['unclosed flow sequence', 'providers: [', /not valid YAML/],
  ['bad indentation', 'providers:\n  - name: a\n bad: [\n', /not valid YAML/],
  ['a list at the top', '- name: a\n', /mapping at the top level/],
  ['a scalar at the top', 'just text', /mapping at the top level/],
  ['an empty document', '', /mapping at the top level/],
  ['providers not a list', 'providers: 42\n', /"providers" list/],
  ['no providers key', 'kind: CredentialProviderConfig\n', /"providers" list/],
  ['a provider without a name', 'providers:\n  - matchImages: []\n', /providers\[0\] has no "name"/],
  [
    'a provider name that is not a string',
    'providers:\n  - name: a\n  - name: [x]\n',
    /providers\[1\] has no "name"/,
  ],
  ['a provider that is not a mapping', 'providers:\n  - ecr\n', /providers\[0\] has no "name"/],
];

for (const [what, config, message] of malformed) {
  test(`refuses ${what} with a clear error`, (t) => {
    const err = t.throws(() => rewriteCredentialProviderConfig(config), {
      instanceOf: CredentialProviderConfigError,
    });
    t.regex(err.message, /^provider 'aws': ecr-credential-provider config: /);
    t.regex(err.message, message);
  });
}

test('ships the plugin binary to C:\\k and enables it with the two kubelet flags', (t) => {
  t.deepEqual(awsImageCredentialProvider.payload(), [
    { name: 'ecr-credential-provider.exe', directory: 'C:\\k' },
  ]);
  t.deepEqual(awsImageCredentialProvider.kubeletFlags(), [
    '--image-credential-provider-bin-dir=C:\\k',
    '--image-credential-provider-config=C:\\k\\credential-provider-config.yaml',
  ]);
  t.is(
    awsImageCredentialProvider.ignitionConfigPath,
    '/etc/kubernetes/credential-providers/ecr-credential-provider.yaml',
  );
});
