import test from 'ava';
import { execFile } from 'node:child_process';
import { OPERATOR_MAIN } from '../operator-main.js';

// Runs the built CLI as a child process: `wmco sim --platform P --machinesets N --replicas R`, one at a
// time (each runs a whole world at the demo's realistic host costs).

const main = OPERATOR_MAIN;

function wmcoSim(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main, 'sim', ...args], { timeout: 150_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

test.serial('--machinesets 1 --replicas 2 on Nutanix: both Machines Running with Ready nodes', async (t) => {
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

// On AWS, Azure and GCP the Machines' instances are created in the platform's simulated cloud.
const PROVIDER_ID: Readonly<Record<string, RegExp>> = {
  AWS: /winms0-[a-z0-9]{5}: aws:\/\/\/us-east-2a\/i-[0-9a-f]{17} → node ip-127-5-[0-9-]+\.us-east-2\.compute\.internal/,
  Azure:
    /winms0-([a-z0-9]{5}): azure:\/\/\/subscriptions\/[0-9a-f-]+\/resourceGroups\/wmco-sim-rg\/providers\/Microsoft\.Compute\/virtualMachines\/winms0-\1 → node winms0-\1/,
  GCP: /winms0-([a-z0-9]{5}): gce:\/\/wmco-sim-project\/us-central1-a\/winms0-\1 → node winms0-\1\.us-central1-a\.c\.wmco-sim-project\.internal/,
};

for (const [platform, line] of Object.entries(PROVIDER_ID)) {
  test.serial(
    `--machinesets 1 --replicas 1 on ${platform}: the Machine is an instance of the simulated cloud`,
    async (t) => {
      const r = await wmcoSim([
        '--platform',
        platform,
        '--machinesets',
        '1',
        '--replicas',
        '1',
        '--timeout',
        '120',
      ]);
      t.is(r.code, 0, r.stderr);
      t.regex(r.stdout, /machineset winms0: 1\/1 Machines Running with Ready nodes/);
      t.regex(r.stdout, line);
    },
  );
}

test('--replicas must be a number from 1 to 20', async (t) => {
  const r = await wmcoSim(['--platform', 'VSphere', '--machinesets', '1', '--replicas', '0']);
  t.not(r.code, 0);
  t.regex(r.stderr, /--replicas: "0" is not a number from 1 to 20/);
});
