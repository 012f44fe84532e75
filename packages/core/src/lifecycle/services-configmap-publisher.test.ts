import test from 'ava';
import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import { publishServicesConfigMap } from './services-configmap-publisher.js';

/** A ConfigMap store that answers as the API server does: map keys sorted (Go's encoding of a map). */
function sortingServer(): { api: CoreV1Api; writes: string[] } {
  const stored = new Map<string, V1ConfigMap>();
  const writes: string[] = [];
  const sorted = (cm: V1ConfigMap): V1ConfigMap => ({
    ...cm,
    data: Object.fromEntries(Object.entries(cm.data ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))),
  });
  const api = {
    readNamespacedConfigMap: ({ name }: { name: string }) => {
      const cm = stored.get(name);
      return cm
        ? Promise.resolve(sorted(cm))
        : Promise.reject(Object.assign(new Error('404'), { code: 404 }));
    },
    deleteNamespacedConfigMap: ({ name }: { name: string }) => {
      writes.push(`delete ${name}`);
      stored.delete(name);
      return Promise.resolve({});
    },
    createNamespacedConfigMap: ({ body }: { body: V1ConfigMap }) => {
      const name = body.metadata?.name ?? '';
      writes.push(`create ${name}`);
      stored.set(name, body);
      return Promise.resolve(sorted(body));
    },
  };
  return { api: api as unknown as CoreV1Api, writes };
}

const content = {
  services: [],
  envVars: { HTTP_PROXY: 'http://proxy:3128', NO_PROXY: '.svc' },
};

test('a published ConfigMap read back with its keys sorted is left alone (no delete and re-create loop)', async (t) => {
  const { api, writes } = sortingServer();
  await publishServicesConfigMap(api, 'ns', 'v1', content);
  await publishServicesConfigMap(api, 'ns', 'v1', content);
  await publishServicesConfigMap(api, 'ns', 'v1', content);
  t.deepEqual(writes, ['create windows-services-v1']);
});

test('a ConfigMap of that name with other content is replaced', async (t) => {
  const { api, writes } = sortingServer();
  await publishServicesConfigMap(api, 'ns', 'v1', content);
  await publishServicesConfigMap(api, 'ns', 'v1', { ...content, envVars: {} });
  t.deepEqual(writes, [
    'create windows-services-v1',
    'delete windows-services-v1',
    'create windows-services-v1',
  ]);
});
