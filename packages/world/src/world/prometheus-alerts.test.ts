// The operator's alerts in deploy/08-prometheusrule.yaml, unit-tested with Debian's promtool (`promtool
// test rules`: each fires on the series that should fire it, and only then), and each runbook_url points
// at a section of docs/alerts.md that exists.
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
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const RUNBOOKS = 'https://github.com/wmco-ts/wmco-ts/blob/main/docs/alerts.md#';
const unavailable = ensurePrometheus();
const suite = unavailable ? test.skip : test;
if (unavailable) console.log(`promtool test rules skipped: ${unavailable}`);

interface Rule {
  readonly alert?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}
type Groups = { name: string; rules: Rule[] }[];

async function groups(): Promise<Groups> {
  const text = await readFile(join(ROOT, 'deploy/08-prometheusrule.yaml'), 'utf8');
  return (parse(text) as { spec: { groups: Groups } }).spec.groups;
}

function alerts(all: Groups): Rule[] {
  return all.flatMap((g) => g.rules).filter((r) => r.alert !== undefined);
}

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces as dashes. */
const anchor = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

test('every alert has a severity and a runbook_url to a section of docs/alerts.md', async (t) => {
  const doc = await readFile(join(ROOT, 'docs/alerts.md'), 'utf8');
  const anchors = new Set([...doc.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1] ?? '')));
  const found = alerts(await groups());
  t.true(found.length >= 3);
  for (const rule of found) {
    t.truthy(rule.labels?.['severity'], `${rule.alert} has no severity`);
    const url = rule.annotations?.['runbook_url'] ?? '';
    t.true(url.startsWith(RUNBOOKS), `${rule.alert}: runbook_url ${url}`);
    t.true(
      anchors.has(url.slice(RUNBOOKS.length)),
      `${rule.alert}: no section #${url.slice(RUNBOOKS.length)}`,
    );
  }
});

const J = 'job="windows-machine-config-operator-metrics"';

/** An alert's expected firing instance: its own labels plus `labels`, its annotations as written. */
function fired(rule: Rule, labels: Record<string, string>): { exp_labels: object; exp_annotations: object } {
  return { exp_labels: { ...rule.labels, ...labels }, exp_annotations: rule.annotations ?? {} };
}

function unitTests(byName: Map<string, Rule>): object {
  const rule = (name: string): Rule => byName.get(name) ?? { alert: name };
  const at = (alertname: string, evalTime: string, exp: object[]): object => ({
    alertname,
    eval_time: evalTime,
    exp_alerts: exp,
  });
  return {
    rule_files: ['rules.yaml'],
    evaluation_interval: '1m',
    tests: [
      {
        interval: '1m',
        input_series: [
          { series: `wmco_instances{${J},pod="a",phase="Failed"}`, values: '1x40' },
          { series: `wmco_instances{${J},pod="a",phase="Ready"}`, values: '3x40' },
          // windows-instances: 10 errors for each success; machines: 1 error for 10 successes.
          {
            series: `wmco_reconcile_total{${J},controller="windows-instances",result="error"}`,
            values: '0+10x60',
          },
          {
            series: `wmco_reconcile_total{${J},controller="windows-instances",result="success"}`,
            values: '0+1x60',
          },
          { series: `wmco_reconcile_total{${J},controller="machines",result="error"}`, values: '0+1x60' },
          { series: `wmco_reconcile_total{${J},controller="machines",result="success"}`, values: '0+10x60' },
          // Two replicas: neither leads for 20 minutes, then b does.
          { series: `wmco_leader{${J},pod="a"}`, values: '0x40' },
          { series: `wmco_leader{${J},pod="b"}`, values: '0x20 1x20' },
        ],
        alert_rule_test: [
          at('WindowsInstanceFailed', '10m', []),
          at('WindowsInstanceFailed', '20m', [fired(rule('WindowsInstanceFailed'), { phase: 'Failed' })]),
          at('WMCOReconcileErrors', '20m', []),
          at('WMCOReconcileErrors', '55m', [
            fired(rule('WMCOReconcileErrors'), { controller: 'windows-instances' }),
          ]),
          at('WMCONoLeader', '5m', []),
          at('WMCONoLeader', '15m', [fired(rule('WMCONoLeader'), {})]),
          at('WMCONoLeader', '30m', []),
        ],
      },
    ],
  };
}

suite('promtool test rules: each alert fires on its cause and not otherwise', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-alerts-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const all = await groups();
  const byName = new Map(alerts(all).map((r) => [r.alert ?? '', r]));
  await writeFile(join(dir, 'rules.yaml'), stringify({ groups: all }));
  await writeFile(join(dir, 'tests.yaml'), stringify(unitTests(byName)));
  const tested = await run('promtool', ['test', 'rules', 'tests.yaml'], { cwd: dir }).catch(
    (e: { stdout?: string; stderr?: string }) => ({ stdout: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
  );
  t.regex(tested.stdout, /SUCCESS/, tested.stdout);
});
