import test from 'ava';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kubectl, ensureKubectl } from '@wmco/sim';
import { wmcoSim } from './outside-cluster.test-helper.js';
import { NS, testWorld, until } from './world-fixture.js';

// Issue 30: the operator of the simulated world has a Pod, and `kubectl logs deployment/...` (the docs'
// command) answers with the operator's own log lines, the same the world's log sink hears.

test('kubectl logs deployment/windows-machine-config-operator returns the operator log', async (t) => {
  const missing = ensureKubectl();
  if (missing) return t.fail(missing);
  const { world, logs } = await testWorld([]);
  try {
    await world.startOperator();
    const k = new Kubectl(world.adminKubeconfig);
    // Some line the operator logged once it started (the sink and the Pod's log get the same lines).
    const first = await until('a first operator log line', () => Promise.resolve(logs[0]));
    const r = await until('kubectl logs with that line', async () => {
      const out = await k.run(['-n', NS, 'logs', 'deployment/windows-machine-config-operator']);
      return out.code === 0 && out.stdout.includes(first.trim()) ? out : undefined;
    });
    t.true(r.stdout.split('\n').every((l) => l === '' || JSON.parse(l) !== null));
    const tail = await k.run(['-n', NS, 'logs', 'deployment/windows-machine-config-operator', '--tail=1']);
    t.is(tail.code, 0, tail.stderr);
    t.is(tail.stdout.trim().split('\n').length, 1);
  } finally {
    await world.stop();
  }
});

test('wmco sim --hosts 1 --log-out FILE names the file and writes the operator log there', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'wmco-sim-log-')), 'operator.log');
  const r = await wmcoSim(['--hosts', '1', '--platform', 'None', '--log-out', file, '--timeout', '180']);
  t.is(r.code, 0, r.stderr);
  t.true(r.stdout.includes(`operator log: ${file}`));
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  t.true(lines.length > 0);
  // One JSON entry per line, as the Pod's log has them.
  t.true(lines.every((l) => typeof (JSON.parse(l) as { msg?: unknown }).msg === 'string'));
});
