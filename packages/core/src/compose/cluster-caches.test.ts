import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { silentLogger } from '../kube/logger.js';
import { clusterCaches } from './cluster-caches.js';

test('caches built after their signal aborted (a stop during start-up) are stopped: the records never list', async (t) => {
  const requests: string[] = [];
  const server = createServer((req) => requests.push(req.url ?? '')); // never answers
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}` }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const stopping = new AbortController();
  stopping.abort();
  const caches = clusterCaches(kc, 'wmco', silentLogger, stopping.signal);
  await caches.startRecords(); // a started watch would wait here for a list this server never answers
  t.deepEqual(requests, []);
});
