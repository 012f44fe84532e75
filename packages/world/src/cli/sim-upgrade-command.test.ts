import test from 'ava';
import { execFile } from 'node:child_process';
import { engineTest } from '../world/engine-test.test-helper.js';
import { OPERATOR_MAIN } from '../operator-main.js';

// Runs the built CLI as a child process: `wmco sim --hosts 2 --upgrade-after 0 --max-unavailable 1`.

const main = OPERATOR_MAIN;

function wmco(args: string[], timeoutMs: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main, ...args], { timeout: timeoutMs }, (e, stdout, stderr) =>
      resolve({ code: e ? 1 : 0, stdout, stderr }),
    );
  });
}

engineTest(
  'wmco sim --upgrade-after replaces the operator and upgrades every node, one at a time',
  async (t, engine) => {
    const r = await wmco(
      [
        ...['sim', '--hosts', '2', '--upgrade-after', '0', '--max-unavailable', '1', '--host-engine', engine],
        // Bounds the wait for Ready (a PowerShell-engine join that hits a known module bug never gets there).
        ...['--timeout', '120'],
      ],
      240_000,
    );
    t.is(r.code, 0, r.stderr);
    t.regex(r.stdout, /operator 0\.1\.0-next started \(max-unavailable 1\)/);
    t.regex(r.stdout, /every node on 0\.1\.0-next in [\d.]+s/);
    // One node at a time: a node is back in service before the other leaves it.
    const steps = r.stdout
      .split('\n')
      .filter((l) => /^\s+\+[\d.]+s win-byoh-0\d: /.test(l))
      .map((l) => l.replace(/^\s+\+[\d.]+s /, ''));
    let out = 0;
    let most = 0;
    const state = new Map<string, boolean>();
    for (const s of steps) {
      const [name = '', rest = ''] = s.split(': ');
      state.set(name, !rest.endsWith('in service'));
      out = [...state.values()].filter(Boolean).length;
      most = Math.max(most, out);
    }
    t.is(most, 1, steps.join('\n'));
    t.is(out, 0);
  },
);

test('wmco sim refuses --max-unavailable without --upgrade-after, and a bad budget', async (t) => {
  const alone = await wmco(['sim', '--hosts', '1', '--max-unavailable', '2'], 30_000);
  t.is(alone.code, 1);
  t.regex(alone.stderr, /--max-unavailable needs --upgrade-after/);
  const bad = await wmco(['sim', '--hosts', '1', '--upgrade-after', '1', '--max-unavailable', '0'], 30_000);
  t.is(bad.code, 1);
  t.regex(bad.stderr, /max-unavailable "0" is not a whole number ≥ 1 or a percentage/);
});
