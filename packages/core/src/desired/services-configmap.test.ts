import test from 'ava';
import {
  parseServicesData,
  renderServicesData,
  servicesConfigMap,
  WATCHED_ENVIRONMENT_VARS,
  type ServicesData,
} from './services-configmap.js';
import { validateExpectedContent } from './services-content.js';
import { buildWindowsServices } from './windows-services.js';

// Vectors: servicescm_test.go Parse (S=services, F=files, E=environmentVars, W=watchedEnvironmentVars).
test('parse: accepted shapes', (t) => {
  t.is(
    parseServicesData({ services: '[]', files: '[]', environmentVars: '{}', watchedEnvironmentVars: '[]' })
      .environmentVars,
    undefined,
  );
  t.is(
    parseServicesData({ services: '[]', files: '[]', environmentVars: 'null', watchedEnvironmentVars: '[]' })
      .environmentVars,
    undefined,
  );
  t.deepEqual(
    parseServicesData({
      services: '[]',
      files: '[]',
      environmentVars: '{"NO_PROXY":"localhost;127.0.0.1"}',
      watchedEnvironmentVars: '["HTTP_PROXY"]',
    }),
    {
      services: [],
      files: [],
      environmentVars: { NO_PROXY: 'localhost;127.0.0.1' },
      watchedEnvironmentVars: ['HTTP_PROXY'],
    },
  );
  t.notThrows(() => parseServicesData({ services: '[]', files: '[]', watchedEnvironmentVars: '[]' }));
  t.notThrows(() =>
    parseServicesData({ services: '[]', files: '[]', environmentVars: '', watchedEnvironmentVars: '' }),
  );
});

test('parse: rejected shapes', (t) => {
  t.throws(() => parseServicesData({ services: '[]', environmentVars: '{}' }), {
    message: /missing the files key/,
  });
  t.throws(() => parseServicesData({}), { message: /missing the services key/ });
  t.throws(() => parseServicesData({ services: '[]' }), { message: /missing the files key/ });
  // Upstream rejects this one for the missing services key; we also name the unknown key.
  t.throws(
    () =>
      parseServicesData({ files: '[]', testKey: '[]', environmentVars: '{}', watchedEnvironmentVars: '[]' }),
    { message: /unknown keys: testKey/ },
  );
  t.throws(
    () =>
      parseServicesData({
        services: '[]',
        files: '[]',
        environmentVars: '{}',
        watchedEnvironmentVars: '[]',
        testKey: '[]',
      }),
    { message: /testKey/ },
  );
  // Deliberate difference (QUIRK 4): upstream accepts one unknown key while the count stays <= 4.
  t.throws(() => parseServicesData({ services: '[]', files: '[]', testKey: '[]' }), {
    message: /unknown keys/,
  });
  t.throws(() => parseServicesData({ services: '[{', files: '[]' }), { message: /key services: not JSON/ });
  t.throws(() => parseServicesData({ services: '[{"name":"a"}]', files: '[]' }), {
    message: /key services: 0\.path/,
  });
});

const content = (env?: Record<string, string>): ServicesData => ({
  services: buildWindowsServices({
    apiServerInternalUrl: 'https://api-int.example.com:6443',
    debug: false,
    vxlanPort: '4789',
  }),
  files: [],
  ...(env ? { environmentVars: env } : {}),
  watchedEnvironmentVars: WATCHED_ENVIRONMENT_VARS,
});

for (const [label, env] of [
  ['non-empty env', { HTTP_PROXY: 'http://proxy:3128/', NO_PROXY: 'localhost,.cluster.local' }],
  ['empty env', {}],
  ['no env', undefined],
] as const) {
  test(`render → parse → validateExpectedContent round trip (${label})`, (t) => {
    const original = content(env);
    const parsed = parseServicesData(renderServicesData(original));
    t.notThrows(() => validateExpectedContent(parsed, original));
    t.deepEqual(parsed.services, original.services);
  });
}

test('validateExpectedContent: an environment mismatch is an error', (t) => {
  const existing = content({
    HTTP_PROXY: 'proxy_endpoint:3128/',
    HTTPS_PROXY: 'proxy_endpoint:3128/',
    NO_PROXY: 'localhost',
  });
  const expected = content({
    HTTP_PROXY: 'proxy_endpoint:3128/',
    HTTPS_PROXY: 'proxy_endpoint:3128/',
    NO_PROXY: 'localhost, example.com',
  });
  t.throws(() => validateExpectedContent(existing, expected), { message: /environment variables differ/ });
});

test('validateExpectedContent: services order does not matter, content does', (t) => {
  const expected = content();
  t.notThrows(() =>
    validateExpectedContent({ ...expected, services: [...expected.services].reverse() }, expected),
  );
  const changed = expected.services.map((s) =>
    s.name === 'kubelet' ? { ...s, command: `${s.command} --v=9` } : s,
  );
  t.throws(() => validateExpectedContent({ ...expected, services: changed }, expected), {
    message: /service kubelet differs/,
  });
  t.throws(() => validateExpectedContent({ ...expected, services: expected.services.slice(1) }, expected), {
    message: /has 5 services, expected 6/,
  });
  t.throws(
    () =>
      validateExpectedContent(
        { ...expected, watchedEnvironmentVars: ['NO_PROXY', 'HTTP_PROXY', 'HTTPS_PROXY'] },
        expected,
      ),
    { message: /watched/ },
  );
  t.throws(() => validateExpectedContent({ ...expected, files: [{ path: 'a', checksum: 'b' }] }, expected), {
    message: /files differ/,
  });
});

test('the ConfigMap JSON uses upstream key names, NodeArgs included (QUIRK 2 kept: null when empty)', (t) => {
  const data = renderServicesData(content());
  const services = JSON.parse(data.services!) as Record<string, unknown>[];
  t.deepEqual(Object.keys(services[0]!), ['name', 'path', 'powershellPreScripts', 'bootstrap', 'priority']);
  t.deepEqual((services[0]!.powershellPreScripts as unknown[])[0], {
    path: 'C:\\Temp\\windows-defender-exclusion.ps1 -BinPath C:\\k\\containerd\\containerd.exe',
    NodeArgs: null,
  });
  const hybrid = services.find((s) => s.name === 'hybrid-overlay-node')!;
  t.deepEqual(hybrid.nodeVariablesInCommand, [{ name: 'NODE_NAME', nodeObjectJsonPath: '{.metadata.name}' }]);
  const kubeProxy = services.find((s) => s.name === 'kube-proxy')!;
  t.is((kubeProxy.powershellPreScripts as { NodeArgs: unknown[] }[])[0]!.NodeArgs.length, 5);
  t.is(data.environmentVars, undefined);
  t.is(data.watchedEnvironmentVars, '["HTTP_PROXY","HTTPS_PROXY","NO_PROXY"]');
  t.is(data.files, '[]');
});

test('the ConfigMap object is immutable and named after the version', (t) => {
  t.like(servicesConfigMap('11.0.0', 'openshift-windows-machine-config-operator', content()), {
    kind: 'ConfigMap',
    immutable: true,
    metadata: { name: 'windows-services-11.0.0', namespace: 'openshift-windows-machine-config-operator' },
  });
});
