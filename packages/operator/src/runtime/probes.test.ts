import test from 'ava';
import { ProbeServer } from './probes.js';

test('serves healthz and readyz with reasons, and no metrics over plain HTTP', async (t) => {
  let synced = false;
  const probes = new ProbeServer({
    host: '127.0.0.1',
    port: 0,
    readiness: [{ name: 'informers', check: () => (synced ? undefined : 'not synced yet') }],
  });
  const port = await probes.start();
  t.teardown(() => probes.stop());
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    return { code: res.status, body: await res.text() };
  };
  t.like(await get('/healthz'), { code: 200 });
  t.deepEqual(await get('/readyz'), { code: 503, body: 'informers: not synced yet\n' });
  synced = true;
  t.like(await get('/readyz'), { code: 200 });
  // Metrics are served only over HTTPS with authentication (secure-metrics.test.ts).
  t.like(await get('/metrics'), { code: 404 });
  t.like(await get('/nope'), { code: 404 });
});
