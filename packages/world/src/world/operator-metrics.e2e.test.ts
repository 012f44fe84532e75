import test from 'ava';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { OperatorMetrics } from '@wmco/operator';
import { joinAll, testWorld } from './world-fixture.js';

type Sample = { labels: Record<string, string | number>; value: number; metricName?: string };

async function samples(m: OperatorMetrics, name: string): Promise<Sample[]> {
  const metric = m.registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  return (await metric.get()).values as Sample[];
}

const total = (s: readonly Sample[]): number => s.reduce((n, x) => n + x.value, 0);

/** The bytes of the payload as shipped (the compressed archives a fresh host receives). */
async function shippedPayloadBytes(dir: string): Promise<number> {
  const archives = (await readdir(dir)).filter((f) => f.endsWith('.tar.gz'));
  const sizes = await Promise.all(archives.map(async (f) => (await stat(join(dir, f))).size));
  return sizes.reduce((n, x) => n + x, 0);
}

test.serial(
  'a join moves the join phase, SSH operation, PowerShell start, bytes-sent, per-phase and work-queue metrics',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }], { driftRepairIntervalMs: 600_000 });
    t.teardown(() => world.stop());
    await joinAll(world);
    const m = world.operators[0]!.metrics;
    const status = await world.status(world.hosts.hosts[0]!.address);

    // One observation per phase left: Connecting, Configuring, WaitingForNode (Ready is not left yet).
    const counts = (await samples(m, 'wmco_join_phase_duration_seconds')).filter((s) =>
      s.metricName?.endsWith('_count'),
    );
    const phases = Object.fromEntries(counts.map((s) => [String(s.labels['phase']), s.value]));
    for (const phase of ['Connecting', 'Configuring', 'WaitingForNode'])
      t.true((phases[phase] ?? 0) >= 1, phase);
    t.is(phases['Ready'], undefined);
    const sums = (await samples(m, 'wmco_join_phase_duration_seconds')).filter((s) =>
      s.metricName?.endsWith('_sum'),
    );
    const configuring = sums.find((s) => s.labels['phase'] === 'Configuring')?.value ?? 0;
    t.true(
      Math.abs(configuring - (status?.phaseSeconds.Configuring ?? -1)) < 0.01,
      'same time as wmco status',
    );

    const ops = await samples(m, 'wmco_ssh_operations_total');
    const by = (op: string, result: string): number =>
      ops.find((s) => s.labels['op'] === op && s.labels['result'] === result)?.value ?? 0;
    t.true(by('observe', 'success') >= 2, 'observe before each round');
    t.true(by('upload', 'success') >= 1);
    t.true(by('apply', 'success') >= 1);
    t.is(by('apply', 'error'), 0);

    // The host's own count of powershell.exe starts and the join's own count of bytes are the floor.
    const starts = total(await samples(m, 'wmco_powershell_starts_total'));
    const bytes = total(await samples(m, 'wmco_ssh_bytes_sent_total'));
    t.log(`phases ${JSON.stringify(phases)}, ${starts} PowerShell starts, ${bytes} bytes`);
    t.true(starts >= (status?.powershellStarts ?? Infinity), 'every start of the join is counted');
    t.true(bytes >= (status?.bytesSent ?? Infinity), 'every byte of the join is counted');
    const shipped = await shippedPayloadBytes(world.payloadDir);
    t.true(shipped > 0 && bytes >= shipped, `the payload went up (${shipped} bytes shipped)`);

    // The per-phase gauge, fed by the operator's status store: the one host, Ready.
    const instances = (await samples(m, 'wmco_instances')).filter((s) => s.value > 0);
    t.deepEqual(
      instances.map((s) => [s.labels['phase'], s.value]),
      [['Ready', 1]],
    );
    // The work queues' latency and work duration: every key handed out was also timed.
    const workCount = total(
      (await samples(m, 'wmco_workqueue_work_duration_seconds')).filter((s) =>
        s.metricName?.endsWith('_count'),
      ),
    );
    t.true(workCount >= 1, 'work duration observed');
  },
);
