import test from 'ava';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Runs the built CLI as a child process: `wmco sim --platform P --machinesets N --replicas R`.

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.js');

function wmcoSim(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main, 'sim', ...args], { timeout: 150_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

test('--machinesets 1 --replicas 2 on Nutanix: both Machines Running with Ready nodes', async (t) => {
  const r = await wmcoSim([
    '--platform',
    'Nutanix',
    '--machinesets',
    '1',
    '--replicas',
    '2',
    '--timeout',
    '120',
  ]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /MachineSets: winms0 \(2 replicas\)/);
  t.regex(
    r.stdout,
    /machineset winms0: 2\/2 Machines Running with Ready nodes \(winms0-[a-z0-9]{5}, winms0-[a-z0-9]{5}\)/,
  );
});

test('--replicas must be a number from 1 to 20', async (t) => {
  const r = await wmcoSim(['--platform', 'VSphere', '--machinesets', '1', '--replicas', '0']);
  t.not(r.code, 0);
  t.regex(r.stderr, /--replicas: "0" is not a number from 1 to 20/);
});
