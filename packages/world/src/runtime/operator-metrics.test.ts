import test from 'ava';
import { spawn } from 'node:child_process';
import type { InstancePhase, InstanceStatus, InstanceStatusStore } from '@wmco/core/internal';
// The operator's metrics with promtool, beside the world's Prometheus helper (it installs promtool).
import { MeteredStatusStore, OperatorMetrics, WMCO_VERSION } from '@wmco/operator';
import { ensurePrometheus } from '../world/prometheus-tool.js';

const promtoolMissing = ensurePrometheus();

class MapStore implements InstanceStatusStore {
  readonly map = new Map<string, InstanceStatus>();
  get(address: string): InstanceStatus | undefined {
    return this.map.get(address);
  }
  set(status: InstanceStatus): Promise<void> {
    this.map.set(status.address, status);
    return Promise.resolve();
  }
  retain(keep: (address: string, phase: InstancePhase | undefined) => boolean): Promise<void> {
    for (const [a, s] of this.map) if (!keep(a, s.phase)) this.map.delete(a);
    return Promise.resolve();
  }
  remove(address: string): Promise<void> {
    this.map.delete(address);
    return Promise.resolve();
  }
}

function status(address: string, phase: InstancePhase): InstanceStatus {
  return { address, phase, since: new Date(0).toISOString(), phaseSeconds: {} };
}

async function exercised(): Promise<OperatorMetrics> {
  const metrics = new OperatorMetrics();
  const q = metrics.queueMetrics('windows-instances');
  q.depth?.(2);
  q.added?.();
  q.queueLatencyMs?.(30);
  q.workDurationMs?.(1500);
  const store = new MeteredStatusStore(
    new MapStore(),
    () => undefined,
    (a, p) => metrics.instancePhase(a, p),
  );
  await store.set(status('10.0.0.1', 'Ready'));
  await store.set(status('10.0.0.2', 'Ready'));
  await store.set(status('10.0.0.3', 'Configuring'));
  await store.set(status('10.0.0.3', 'Failed'));
  await store.remove('10.0.0.2');
  await store.retain((a) => a !== '10.0.0.3');
  await store.set(status('10.0.0.4', 'Connecting'));
  return metrics;
}

test('queue latency and work duration are exported under client-go workqueue names', async (t) => {
  const text = await (await exercised()).registry.metrics();
  t.regex(text, /^wmco_workqueue_queue_duration_seconds_sum\{queue="windows-instances"\} 0\.03$/m);
  t.regex(text, /^wmco_workqueue_work_duration_seconds_sum\{queue="windows-instances"\} 1\.5$/m);
});

test('wmco_instances counts the instances per current phase and forgets removed ones', async (t) => {
  const text = await (await exercised()).registry.metrics();
  const lines = text.split('\n').filter((l) => l.startsWith('wmco_instances{'));
  t.deepEqual(lines.sort(), ['wmco_instances{phase="Connecting"} 1', 'wmco_instances{phase="Ready"} 1']);
});

test('wmco_build_info is 1 with the version labels', async (t) => {
  const text = await new OperatorMetrics({ defaultMetrics: false }).registry.metrics();
  t.true(text.includes(`wmco_build_info{version="${WMCO_VERSION}",contract_version="`));
  t.regex(text, /^wmco_build_info\{.*node_version="v\d+[^"]*"\} 1$/m);
});

test('no gauge ends in _total', async (t) => {
  const metrics = await (await exercised()).registry.getMetricsAsJSON();
  const bad = metrics.filter((m) => m.type.toString() !== 'counter' && m.name.endsWith('_total'));
  t.deepEqual(
    bad.map((m) => m.name),
    [],
  );
});

const withPromtool = promtoolMissing ? test.skip : test;
if (promtoolMissing) console.log(`promtool check metrics skipped: ${promtoolMissing}`);

/** `promtool check metrics` reads the scrape on stdin; it prints one line per problem and exits 1. */
function checkMetrics(scrape: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(scrape);
  });
}

withPromtool('promtool check metrics finds nothing wrong in a real scrape', async (t) => {
  const result = await checkMetrics(await (await exercised()).registry.metrics());
  t.is(result.output, '');
  t.is(result.code, 0);
});
