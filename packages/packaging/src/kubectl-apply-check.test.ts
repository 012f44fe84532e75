import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './repo-root.js';

const SCRIPT = join(REPO_ROOT, 'scripts/kubectl-apply-check.sh');

async function check(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string }> {
  try {
    const r = await promisify(execFile)('bash', [SCRIPT, ...args], { env: { ...process.env, ...env } });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

const hasKubectl = await promisify(execFile)('kubectl', ['version', '--client']).then(
  () => true,
  () => false,
);

test('usage errors exit 2 and say what was wrong', async (t) => {
  t.deepEqual(await check(['--bogus']), {
    code: 2,
    out: 'kubectl-apply-check: unknown argument --bogus (try --help)\n',
  });
  const help = await check(['--help']);
  t.is(help.code, 0);
  t.regex(help.out, /--dry-run=server/);
});

(hasKubectl ? test : test.skip)(
  'an unreachable API server is a clear failure, not a dry-run pass',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'wmco-kc-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]",
        'users: [{name: u, user: {token: x}}]',
        'contexts: [{name: c, context: {cluster: c, user: u}}]',
        'current-context: c',
        '',
      ].join('\n'),
    );
    const r = await check(['--kubeconfig', kubeconfig]);
    t.is(r.code, 1);
    t.regex(r.out, /cannot reach the API server/);
    const missing = await check(['--dir', join(dir, 'nope')], { KUBECONFIG: kubeconfig });
    t.is(missing.code, 2);
    t.regex(missing.out, /no directory/);
  },
);
