// The real consumer of windows_exporter's endpoint: Debian's Prometheus scrapes every simulated node over
// HTTPS, trusting only the service CA and checking the Service's name (as the ServiceMonitor's tlsConfig
// does, reference §1.16). A job that trusts another CA must fail, so the check can fail.
import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPORTER_SERVER_NAME, exporterListener } from './exporter-tls.js';
import { ensurePrometheus, startPrometheus } from './prometheus-tool.js';
import { joinAll, testWorld, until } from './world-fixture.js';

const unavailable = ensurePrometheus();
const suite = unavailable ? test.serial.skip : test.serial;
if (unavailable) console.log(`prometheus check skipped: ${unavailable}`);

suite('Prometheus scrapes windows_exporter on every node with the delivered certificate', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }], {
    driftRepairIntervalMs: 600_000,
  });
  t.teardown(() => world.stop());
  const dir = await mkdtemp(join(tmpdir(), 'wmco-prometheus-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'service-ca.crt'), world.cluster.serviceCa.caPem);
  await writeFile(join(dir, 'other-ca.crt'), world.cluster.server.caPem);
  await joinAll(world);

  const targets = world.hosts.hosts.map((_, i) => {
    const l = exporterListener(world, i);
    if (l?.state !== 'serving') throw new Error(`windows_exporter does not serve: ${JSON.stringify(l)}`);
    return `${l.address}:${l.port}`;
  });
  const prometheus = await startPrometheus(dir, [
    {
      name: 'windows-exporter',
      targets,
      caFile: join(dir, 'service-ca.crt'),
      serverName: EXPORTER_SERVER_NAME,
    },
    { name: 'wrong-ca', targets, caFile: join(dir, 'other-ca.crt'), serverName: EXPORTER_SERVER_NAME },
  ]);
  t.teardown(() => prometheus.stop());

  const scraped = await until(
    'every target scraped once',
    async () => {
      const all = await prometheus.targets();
      return all.length === 4 && all.every((x) => x.health !== 'unknown') ? all : undefined;
    },
    60_000,
  );
  t.log(scraped.map((x) => `${x.job} ${x.scrapeUrl} ${x.health} ${x.lastError}`).join('\n'));
  for (const x of scraped.filter((s) => s.job === 'windows-exporter')) t.is(x.health, 'up', x.lastError);
  for (const x of scraped.filter((s) => s.job === 'wrong-ca')) {
    t.is(x.health, 'down');
    t.regex(x.lastError, /certificate|x509/);
  }
  const series = await until('windows_exporter_build_info stored', async () => {
    const r = await prometheus.query('windows_exporter_build_info{job="windows-exporter"}');
    return r.length === 2 ? r : undefined;
  });
  t.deepEqual(series.map((s) => s['instance']).sort(), [...targets].sort());
});
