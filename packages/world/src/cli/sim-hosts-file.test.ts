import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPERATOR_MAIN } from '../operator-main.js';

// Runs the built CLI as a child process on the example hosts files: `wmco sim --hosts-file FILE`.

const here = dirname(fileURLToPath(import.meta.url));
const main = OPERATOR_MAIN;
const examples = join(here, '..', '..', '..', '..', 'examples', 'hosts-files');

function wmcoSim(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main, 'sim', ...args], { timeout: 115_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** The summary rows: host label → [node, phase]. */
function summary(stdout: string): Map<string, [string, string]> {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => l.startsWith('HOST '));
  const rows = new Map<string, [string, string]>();
  for (const l of lines.slice(start + 1)) {
    const cols = l.trim().split(/\s{2,}/);
    if (cols.length >= 3) rows.set(cols[0] ?? '', [cols[1] ?? '', cols[2] ?? '']);
  }
  return rows;
}

// The world gets 100 s (under CI load a join with retries can pass 60 s), within ava's 120 s timeout.
const run = (file: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  wmcoSim(['--hosts-file', join(examples, file), '--timeout', '100']);

test.serial('dns-listed.yaml: the DNS-listed host and the IPv4-listed host both join', async (t) => {
  const r = await run('dns-listed.yaml');
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /windows-instances: win-dns\.sim\.internal, 127\.[\d.]+\n/);
  const rows = [...summary(r.stdout)];
  t.deepEqual(
    rows.map(([host, [node, phase]]) => [
      host.replace(/\(127\.[\d.]+\)/, '(ip)').replace(/^127\.[\d.]+$/, 'ip'),
      node,
      phase,
    ]),
    [
      ['win-dns.sim.internal (ip)', 'win-dns', 'Ready'],
      ['ip', 'win-ip', 'Ready'],
    ],
  );
});

test.serial('powershell-shell.yaml: a host whose default shell is PowerShell joins', async (t) => {
  const r = await run('powershell-shell.yaml');
  t.is(r.code, 0, r.stderr);
  t.deepEqual([...summary(r.stdout).values()], [['win-ps', 'Ready']]);
});

// Each host really reports the computer name the file gives it; the operator refuses the impostor and
// the second claimant of one name (issue 10), and the honest host still joins.
test.serial(
  'linux-node-impostor.yaml: the impostor is refused; the honest host joins and worker-0 stays the Linux node',
  async (t) => {
    const r = await run('linux-node-impostor.yaml');
    t.is(r.code, 1, 'not every host became Ready');
    const rows = [...summary(r.stdout).values()];
    t.deepEqual(rows, [
      ['win-honest', 'Ready'],
      ['-', 'Failed'],
    ]);
    t.regex(
      r.stdout,
      /reports node name worker-0, taken by an existing Node the operator has no record of joining/,
    );
    t.notRegex(r.stdout, /WaitingForNode \(worker-0\)/, 'the impostor never got to wait for a node');
  },
);

test.serial('duplicate-names.yaml: one host becomes win-twin, the other is refused', async (t) => {
  const r = await run('duplicate-names.yaml');
  t.is(r.code, 1);
  const phases = [...summary(r.stdout).values()].map(([node, phase]) => `${node} ${phase}`).sort();
  t.deepEqual(phases, ['- Failed', 'win-twin Ready'], r.stdout);
  t.regex(r.stdout, /reports node name win-twin, taken by an existing Node of instance 127\.[\d.]+/);
});

test.serial('a bad hosts file is refused with a clear message naming the file and the problem', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wmco-hosts-file-'));
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'hosts:\n  - hostname: WIN-A\n    shell: bash\n  - listAs: dns\n');
  const r = await wmcoSim(['--hosts-file', bad]);
  t.is(r.code, 1);
  t.regex(r.stderr, /bad\.yaml: hosts\.0\.shell: .*"cmd"|"powershell"/);
  t.regex(r.stderr, /hosts\.1\.hostname/);
  const both = await wmcoSim(['--hosts', '2', '--hosts-file', bad]);
  t.is(both.code, 2, 'a usage error');
  t.regex(both.stderr, /--hosts and --hosts-file cannot be used together/);
  const missing = await wmcoSim(['--hosts-file', join(dir, 'nope.yaml')]);
  t.regex(missing.stderr, /nope\.yaml: cannot read/);
});

// Issue 10's hostile scenarios, staged by the hosts file alone. Each asserts through the CLI's output.

/** The `world: WIN-X (address): ...` line the run prints about a scenario host. */
const worldLine = (stdout: string, host: string): string =>
  stdout.split('\n').find((l) => l.startsWith(`world: ${host} (`)) ?? '';

test.serial('hostile-csrs.yaml: every CSR attack is attempted and none is approved', async (t) => {
  const r = await run('hostile-csrs.yaml');
  t.is(r.code, 0, r.stdout + r.stderr);
  const attack = (name: string): string =>
    r.stdout.split('\n').find((l) => l.includes(` world-${name}-win-csr: `)) ?? `no line for ${name}`;
  t.regex(attack('second-client'), /not approved \(.*already has an approved client CSR/);
  t.regex(
    attack('wrong-requester'),
    /not approved \(.*requested by system:bootstrap:\w+, not by the node bootstrapper/,
  );
  t.regex(
    attack('serving-extra-sans'),
    /not approved \(.*IP SAN 192\.0\.2\.10 is not the address of instance/,
  );
  t.regex(attack('after-removal'), /client CSR after its entry was removed .*: not approved/);
  t.regex(r.stdout, /world: removed the entry; the operator let win-csr go/);
  t.notRegex(r.stdout, /APPROVED|BREACH/);
  t.deepEqual(
    [...summary(r.stdout).values()],
    [
      ['-', 'Removed'],
      ['win-plain', 'Ready'],
    ],
  );
});

test.serial('hostile-subnet.yaml: the injected subnet is refused and never reaches the host', async (t) => {
  const r = await run('hostile-subnet.yaml');
  t.is(r.code, 1);
  t.deepEqual(
    [...summary(r.stdout).values()],
    [
      ['win-evil', 'Failed'],
      ['win-good', 'Ready'],
    ],
  );
  t.regex(r.stdout, /Failed: refusing NODE_SUBNET = "10\.132\.0\.0\/24'; Remove-Item .*": not an IPv4 CIDR/);
  t.regex(
    worldLine(r.stdout, 'WIN-EVIL'),
    /hostile node subnet reached the host: no; network-conf\.ps1 ran: no$/,
  );
});

test.serial(
  'numeric-addresses.yaml: non-canonical and link-local keys are refused without SSH',
  async (t) => {
    const r = await run('numeric-addresses.yaml');
    t.is(r.code, 1);
    const rows = summary(r.stdout);
    for (const key of ['010.0.0.1', '2130706433', '0x7f.1', '127.1', '169.254.10.20']) {
      const row = [...rows].find(([label]) => label.startsWith(`${key} (host `));
      t.deepEqual(row?.[1], ['-', 'Failed'], key);
      const why = key.startsWith('169.254') ? /is a link-local address/ : /non-canonical form/;
      t.regex(r.stdout, new RegExp(`Failed: windows-instances entry "${key}": .*${why.source}`), key);
      const events = r.stdout
        .split('\n')
        .filter((l) => l.includes(`event InstanceSetupFailure: windows-instances entry "${key}"`));
      t.is(events.length, 1, `one event for ${key}`);
    }
    for (const host of ['WIN-OCTAL', 'WIN-DECIMAL', 'WIN-HEX', 'WIN-SHORT', 'WIN-LINK-LOCAL'])
      t.regex(worldLine(r.stdout, host), /: 0 SSH connections accepted$/, host);
    t.true([...rows.values()].some(([node, phase]) => node === 'win-ok' && phase === 'Ready'));
  },
);

test.serial(
  'duplicate-entries.yaml: one host listed twice joins once; the other entry is refused',
  async (t) => {
    const r = await run('duplicate-entries.yaml');
    t.is(r.code, 1);
    t.regex(r.stdout, /windows-instances: 127\.[\d.]+, win-dup\.sim\.internal\n/);
    const phases = [...summary(r.stdout).values()].map(([node, phase]) => `${node} ${phase}`).sort();
    t.deepEqual(phases, ['- Failed', 'win-dup Ready']);
    t.regex(r.stdout, /reaches the same host \(127\.[\d.]+\) as entry "/);
    // The refused entry never started a join of its own: it went straight to Failed, with one event.
    const dnsLines = r.stdout.split('\n').filter((l) => /\] win-dup\.sim\.internal \(/.test(l));
    t.true(dnsLines.length > 0);
    for (const l of dnsLines) t.regex(l, /\)\s+(Failed: |event InstanceSetupFailure: )/);
    t.is(dnsLines.filter((l) => l.includes(' event ')).length, 1);
  },
);

test.serial(
  'endless-output.yaml: the join fails clearly at the output cap, memory stays bounded, the retry joins',
  async (t) => {
    const r = await run('endless-output.yaml');
    t.is(r.code, 0, r.stdout + r.stderr);
    t.regex(
      r.stdout,
      /event InstanceSetupFailure: instance 127\.[\d.]+: host 127\.[\d.]+ printed more than \d+ bytes for one command; stopped reading/,
    );
    const grew =
      /RSS of this process \(world and operator\) grew by at most (\d+) MiB while it streamed/.exec(
        worldLine(r.stdout, 'WIN-LOUD'),
      );
    t.truthy(grew, r.stdout);
    t.true(Number(grew?.[1]) < 128, `RSS grew by ${grew?.[1] ?? '?'} MiB`);
    t.deepEqual([...summary(r.stdout).values()], [['win-loud', 'Ready']]);
  },
);

test.serial(
  'attach mode refuses a hosts file with scenario fields (only the world stages them)',
  async (t) => {
    const r = await wmcoSim([
      '--cluster',
      join(tmpdir(), 'no-such.kubeconfig'),
      '--hosts-file',
      join(examples, 'hostile-subnet.yaml'),
    ]);
    t.is(r.code, 1);
    t.regex(
      r.stderr,
      /--cluster: the hosts file uses scenario fields, which only the simulated world stages/,
    );
  },
);
