import test from 'ava';
import { fakeConfigMaps } from '../lifecycle/lifecycle.test-helper.js';
import { publishServicesConfigMap } from '../lifecycle/services-configmap-publisher.js';
import { withoutProxyCredentials } from './proxy-env.js';

test('credentials in proxy URLs are removed from what is published', (t) => {
  t.deepEqual(
    withoutProxyCredentials({
      HTTP_PROXY: 'http://user:p%40ss@proxy.example:3128',
      HTTPS_PROXY: 'user:secret@proxy.example:3129',
      NO_PROXY: '.cluster.local,10.0.0.0/8,user@example.com',
    }),
    {
      HTTP_PROXY: 'http://proxy.example:3128',
      HTTPS_PROXY: 'proxy.example:3129',
      NO_PROXY: '.cluster.local,10.0.0.0/8,user@example.com',
    },
  );
  t.deepEqual(withoutProxyCredentials({ HTTP_PROXY: 'http://proxy:3128/path@x' }), {
    HTTP_PROXY: 'http://proxy:3128/path@x',
  });
  // An unencoded @ in the password, an IPv6 proxy, lower-case names: the whole userinfo goes.
  t.deepEqual(
    withoutProxyCredentials({
      https_proxy: 'user:p@ss@proxy:3128',
      HTTP_PROXY: 'http://user:pass@[fd00::1]:3128',
    }),
    { https_proxy: 'proxy:3128', HTTP_PROXY: 'http://[fd00::1]:3128' },
  );
});

test('the services ConfigMap never holds proxy credentials', async (t) => {
  const { api, created } = fakeConfigMaps();
  await publishServicesConfigMap(api, 'ns', 'v1', {
    services: [],
    envVars: { HTTP_PROXY: 'http://alice:hunter2@proxy:3128', NO_PROXY: '.svc' },
  });
  const data = JSON.stringify(created[0]?.data);
  t.false(data.includes('hunter2'));
  t.false(data.includes('alice'));
  t.true(data.includes('http://proxy:3128'));
});
