import test from 'ava';
import { OperatorMetrics } from './metrics.js';
import { ProbeServer } from './probes.js';

test('serves healthz, readyz with reasons, and Prometheus metrics', async (t) => {
  const metrics = new OperatorMetrics({ defaultMetrics: false });
  let synced = false;
  const probes = new ProbeServer({
    host: '127.0.0.1',
    port: 0,
    registry: metrics.registry,
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
  metrics.controllerMetrics().reconciled?.('instances', 'success', 1500);
  metrics.queueMetrics('instances').depth?.(3);
  metrics.csrDecisions.inc({ decision: 'refused' });
  const { body } = await get('/metrics');
  t.regex(body, /wmco_reconcile_total\{controller="instances",result="success"\} 1/);
  t.regex(body, /wmco_workqueue_depth\{queue="instances"\} 3/);
  t.regex(body, /wmco_csr_decisions_total\{decision="refused"\} 1/);
  t.like(await get('/nope'), { code: 404 });
});
