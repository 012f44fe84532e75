import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { newRootContainer } from '@wmco/core';
import { OPERATOR_NAMESPACE, startSimCluster } from '@wmco/sim';
import type { CliContext } from '@wmco/operator';
import { buildProgram } from '@wmco/operator';

test('wmco status escapes what someone wrote into the status ConfigMap', async (t) => {
  const cluster = await startSimCluster();
  const dir = await mkdtemp(join(tmpdir(), 'wmco-status-'));
  t.teardown(async () => {
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const files = await cluster.writeKubeconfigs(dir);
  const kc = new KubeConfig();
  kc.loadFromFile(files.admin);
  const good = {
    address: '10.0.0.1',
    phase: 'Failed',
    node: 'win-a\u001b]0;owned\u0007',
    since: new Date().toISOString(),
    phaseSeconds: {},
    lastError: 'clear\u001b[2J\u001b[31m red\r\nfake line\u202e',
  };
  await kc.makeApiClient(CoreV1Api).createNamespacedConfigMap({
    namespace: OPERATOR_NAMESPACE,
    body: {
      metadata: { name: 'windows-instances-status' },
      data: { '10.0.0.1': JSON.stringify(good), broken: '\u001b[31mnot json' },
    },
  });
  const out: string[] = [];
  const err: string[] = [];
  const ctx: CliContext = {
    container: newRootContainer(),
    builtinProviders: [],
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    env: {},
  };
  const program = (await buildProgram(ctx)).exitOverride();
  await program.parseAsync(['status', '--kubeconfig', files.admin, '-n', OPERATOR_NAMESPACE], {
    from: 'user',
  });
  const text = out.join('\n');
  t.false(/[^\P{Cc}\n]|\u202e/u.test(text), 'no control character reaches the terminal');
  t.true(text.includes('clear\\u001b[2J\\u001b[31m red\\u000d\\u000afake line\\u202e'));
  t.true(text.includes('win-a\\u001b]0;owned\\u0007'));
  t.deepEqual(err, ['skipping entry "broken": not a status object']);
});
