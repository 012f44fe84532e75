import test from 'ava';
import type { ImageCredentialProvider } from '../provider/capabilities/image-credential-provider.js';
import { trustedCaBundle } from './ca-bundle.js';
import { credentialProviderConfigFile } from './credential-provider-config.js';
import { isProxyEnabled, proxyEnvironment, watchedEnvironmentChanged } from './proxy-env.js';

test('proxy env: values verbatim, commas kept, absent variables omitted', (t) => {
  const env = {
    HTTP_PROXY: 'http://example.com',
    NO_PROXY: 'localhost,127.0.0.1,.cluster.local',
    PATH: '/bin',
  };
  t.deepEqual(proxyEnvironment(env), {
    HTTP_PROXY: 'http://example.com',
    NO_PROXY: 'localhost,127.0.0.1,.cluster.local',
  });
  t.true(isProxyEnabled(env));
  t.deepEqual(proxyEnvironment({ PATH: '/bin' }), {});
  t.false(isProxyEnabled({}));
  t.deepEqual(proxyEnvironment({ HTTPS_PROXY: '' }), { HTTPS_PROXY: '' });
});

test('CA bundle: user bundles, then bundles, then the proxy CA', (t) => {
  t.is(
    trustedCaBundle({
      userBundles: [{ file: 'registry.example.com..5000', data: 'USER' }],
      bundles: [{ file: 'image-registry.openshift-image-registry.svc..5000', data: 'SVC' }],
      proxyTrustedCa: 'PROXY\n',
    }),
    '# registry.example.com:5000\nUSER\n\n# image-registry.openshift-image-registry.svc:5000\nSVC\n\nPROXY\n',
  );
  t.is(trustedCaBundle({ userBundles: [], bundles: [] }), '');
});

// A fake ECR-like capability whose rewrite appends ".exe" to provider names (modifyCredentialProviderConfig).
const fake: ImageCredentialProvider = {
  payload: () => [],
  ignitionConfigPath: '/etc/kubernetes/credential-providers/ecr-credential-provider.yaml',
  kubeletFlags: () => [],
  rewriteConfig: (c) => {
    if (!c.includes('providers:')) throw new Error('no providers list');
    return c.replace(/name: (\S+?)(\.exe)?$/gm, 'name: $1.exe');
  },
};

test('credential provider config: rewritten by the capability, written to C:\\k', (t) => {
  const linux =
    'providers:\n- name: quay-provider\n  matchImages: ["*.quay.io"]\n- name: other-provider.exe\n  matchImages: ["*.other.io"]\n';
  t.deepEqual(credentialProviderConfigFile(fake, linux), {
    path: 'C:\\k\\credential-provider-config.yaml',
    content:
      'providers:\n- name: quay-provider.exe\n  matchImages: ["*.quay.io"]\n- name: other-provider.exe\n  matchImages: ["*.other.io"]\n',
  });
  t.throws(() => credentialProviderConfigFile(fake, 'garbage'), {
    message: /ecr-credential-provider\.yaml: no providers list/,
  });
});

// controller_test.go TestReconcile (Windows): when the watched variables differ, the host reboots.
test('proxy env: a watched variable set, changed or removed needs a reboot', (t) => {
  const watched = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'];
  const existing = { NO_PROXY: 'localhost,127.0.0.1', HTTP_PROXY: 'http://example.com' };
  t.true(watchedEnvironmentChanged({}, existing, watched));
  t.true(
    watchedEnvironmentChanged(
      existing,
      { NO_PROXY: 'localhost,127.0.0.2', HTTP_PROXY: 'http://169.254.169.254' },
      watched,
    ),
  );
  t.true(watchedEnvironmentChanged(existing, {}, watched));
  t.true(watchedEnvironmentChanged(existing, { NO_PROXY: 'localhost,127.0.0.1' }, watched));
  t.false(watchedEnvironmentChanged(existing, { ...existing }, watched));
  t.false(
    watchedEnvironmentChanged({ PATH: 'a' }, { PATH: 'b' }, watched),
    'unwatched variables do not count',
  );
});
