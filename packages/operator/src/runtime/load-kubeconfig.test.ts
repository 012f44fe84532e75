import test from 'ava';
import { CoreV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import { SimApiServer } from '@wmco/sim';
import { PooledKubeConfig } from './load-kubeconfig.js';

async function oneByOne(kc: KubeConfig, n: number): Promise<void> {
  const api = kc.makeApiClient(CoreV1Api);
  for (let i = 0; i < n; i++) await api.listNamespace();
}

async function atOnce(kc: KubeConfig, n: number): Promise<void> {
  const api = kc.makeApiClient(CoreV1Api);
  await Promise.all(Array.from({ length: n }, () => api.listNamespace()));
}

test('requests share their connections to the API server instead of one each (client-node 2.0.1 opens one each)', async (t) => {
  const server = await SimApiServer.start();
  t.teardown(() => server.stop());
  const pooled = new PooledKubeConfig();
  pooled.loadFromString(server.kubeconfig(server.admin));
  await oneByOne(pooled, 20);
  // One request after the other: a connection or two (undici may dial again while the last response ends).
  t.true(server.openConnections <= 2, `${server.openConnections} connections for 20 requests one by one`);
  await atOnce(pooled, 10);
  const shared = server.openConnections;
  t.true(shared <= 11, `${shared} connections after 10 requests at once`);
  await oneByOne(pooled, 20);
  await atOnce(pooled, 10);
  t.is(server.openConnections, shared, 'later requests reuse the same connections');
  // The plain KubeConfig, to show what the pooled one avoids (if client-node fixes it, this test says so).
  const plain = new KubeConfig();
  plain.loadFromString(server.kubeconfig(server.admin));
  await oneByOne(plain, 20);
  t.true(server.openConnections - shared >= 20, `plain: ${server.openConnections - shared} new connections`);
});

test('a watch through the pooled config still streams events', async (t) => {
  const server = await SimApiServer.start();
  t.teardown(() => server.stop());
  const kc = new PooledKubeConfig();
  kc.loadFromString(server.kubeconfig(server.admin));
  const seen: string[] = [];
  const req = await new Watch(kc).watch(
    '/api/v1/namespaces',
    {},
    (type, obj: { metadata?: { name?: string } }) => {
      seen.push(`${type} ${obj.metadata?.name ?? ''}`);
    },
    () => undefined,
  );
  t.teardown(() => req.abort());
  await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'pooled' } } });
  const deadline = Date.now() + 10_000;
  while (!seen.includes('ADDED pooled') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  t.true(seen.includes('ADDED pooled'), seen.join(', '));
});
