// deploy/08-prometheusrule.yaml checked by Debian's promtool: the rules parse, and on windows_exporter
// series they record what the node_exporter-named series mean (`promtool test rules`).
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { ensurePrometheus } from './prometheus-tool.js';

const run = promisify(execFile);
const RULE_FILE = fileURLToPath(new URL('../../../../deploy/08-prometheusrule.yaml', import.meta.url));
const unavailable = ensurePrometheus();
const suite = unavailable ? test.skip : test;
if (unavailable) console.log(`promtool check skipped: ${unavailable}`);

const W = 'job="windows-exporter",instance="win-a"';
const unitTests = {
  rule_files: ['rules.yaml'],
  evaluation_interval: '1m',
  tests: [
    {
      interval: '1m',
      input_series: [
        // Two cores, idle 45 of every 60 s: 25 % busy.
        { series: `windows_cpu_time_total{${W},core="0,0",mode="idle"}`, values: '0+45x5' },
        { series: `windows_cpu_time_total{${W},core="0,1",mode="idle"}`, values: '0+45x5' },
        { series: `windows_memory_physical_total_bytes{${W}}`, values: '8000x5' },
        { series: `windows_memory_available_bytes{${W}}`, values: '2000x5' },
        { series: `windows_logical_disk_free_bytes{${W},volume="C:"}`, values: '500x5' },
        { series: `windows_logical_disk_free_bytes{${W},volume="HarddiskVolume1"}`, values: '1x5' },
      ],
      promql_expr_test: [
        {
          expr: 'instance:node_num_cpu:sum',
          eval_time: '5m',
          exp_samples: [{ labels: `instance:node_num_cpu:sum{${W}}`, value: 2 }],
        },
        {
          expr: 'instance:node_cpu_utilisation:rate1m',
          eval_time: '5m',
          exp_samples: [{ labels: `instance:node_cpu_utilisation:rate1m{${W}}`, value: 0.25 }],
        },
        {
          expr: 'instance:node_memory_utilisation:ratio',
          eval_time: '5m',
          exp_samples: [{ labels: `instance:node_memory_utilisation:ratio{${W}}`, value: 0.75 }],
        },
        {
          expr: 'node_filesystem_avail_bytes',
          eval_time: '5m',
          exp_samples: [
            { labels: `node_filesystem_avail_bytes{${W},volume="C:",mountpoint="C:"}`, value: 500 },
          ],
        },
      ],
    },
  ],
};

suite('the shipped PrometheusRule parses and records node series from windows_exporter series', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-promtool-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const rule = parse(await readFile(RULE_FILE, 'utf8')) as { kind: string; spec: { groups: unknown[] } };
  t.is(rule.kind, 'PrometheusRule');
  await writeFile(join(dir, 'rules.yaml'), stringify({ groups: rule.spec.groups }));
  await writeFile(join(dir, 'tests.yaml'), stringify(unitTests));
  const check = await run('promtool', ['check', 'rules', join(dir, 'rules.yaml')]);
  t.regex(check.stdout, /SUCCESS: 15 rules found/);
  const tested = await run('promtool', ['test', 'rules', 'tests.yaml'], { cwd: dir });
  t.regex(tested.stdout, /SUCCESS/);
});
