import test from 'ava';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { kubeWatch, WATCH_IDLE_TIMEOUT_MS } from './kube-watch.js';

/** A loopback server whose watch answers with `answer`; it is closed when the test ends. */
async function server(
  t: { teardown(fn: () => void): void },
  answer: (res: ServerResponse) => void,
): Promise<KubeConfig> {
  const open: ServerResponse[] = [];
  const srv: Server = createServer((_req, res) => {
    open.push(res);
    answer(res);
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    open.forEach((r) => r.destroy());
    srv.close();
  });
  const kc = new KubeConfig();
  const { port } = srv.address() as AddressInfo;
  kc.loadFromClusterAndUser(
    { name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true },
    { name: 'u' },
  );
  return kc;
}

function done(watch: ReturnType<typeof kubeWatch>): Promise<{ err: unknown; events: string[] }> {
  const events: string[] = [];
  return new Promise((resolve, reject) => {
    watch(
      '/api/v1/nodes',
      {},
      (type) => events.push(type),
      (err) => resolve({ err, events }),
    ).catch(reject);
  });
}

test('a watch the server keeps open and silent ends as a clean close, not an error', async (t) => {
  const kc = await server(t, (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'n1' } } })}\n`);
  });
  const { err, events } = await done(kubeWatch(kc, 200));
  t.deepEqual(events, ['ADDED']);
  t.is(err, undefined);
});

test('a watch whose response never arrives is still an error', async (t) => {
  const kc = await server(t, () => undefined);
  const { err } = await done(kubeWatch(kc, 200));
  t.true(err instanceof Error, 'a connect that timed out is reported');
});

test('an idle watch outlasts the API server’s bookmark period: the client does not end a healthy watch', (t) => {
  // kube-apiserver's watch cache sends a bookmark about once a minute on a watch that asked for them.
  const BOOKMARK_PERIOD_MS = 60_000;
  t.true(WATCH_IDLE_TIMEOUT_MS >= 2 * BOOKMARK_PERIOD_MS);
  // A dead connection is still noticed before the informer's five-minute silence watchdog relists.
  t.true(WATCH_IDLE_TIMEOUT_MS < 300_000);
});
