import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { FirewallRuleSpec, PreflightReport } from '@wmco/core';
import {
  generateEd25519KeyPair,
  type FileSystem,
  type HostFaults,
  type WindowsModelOptions,
} from '@wmco/sim';
import {
  NODE_FIREWALL_RULES,
  capturingContext,
  runWmco,
  sshFlags,
  startCheckedHost,
  writeKeyFile,
} from './in-process-cli.test-helper.js';
import { REAL_PREFLIGHT_PORTS, preflightCommand } from '@wmco/operator';

let nextOctet = 1;
function loopback(): string {
  nextOctet = nextOctet >= 250 ? 1 : nextOctet + 1;
  return `127.0.${60 + (process.pid % 40)}.${nextOctet}`;
}

interface Outcome {
  readonly out: string;
  readonly report: PreflightReport;
  readonly error?: string;
}

interface HostSetup {
  readonly model?: WindowsModelOptions;
  readonly rules?: readonly FirewallRuleSpec[];
  readonly faults?: HostFaults;
  /** Connect with a key the host does not know. */
  readonly wrongKey?: boolean;
  /** Stop the host before checking (nothing listens on its port). */
  readonly stopped?: boolean;
  readonly args?: readonly string[];
  /** What else the host holds before the check (its model's files). */
  readonly files?: (files: FileSystem) => void;
}

/** Starts a simulated host (healthy unless told otherwise), runs `wmco preflight` twice (table, json). */
async function preflight(setup: HostSetup = {}): Promise<{ table: Outcome; json: Outcome }> {
  const { sim, key } = await startCheckedHost({
    address: loopback(),
    hostname: 'win-ready',
    rules: setup.rules ?? NODE_FIREWALL_RULES,
    ...(setup.model ? { model: setup.model } : {}),
  });
  sim.faults = { ...setup.faults };
  setup.files?.(sim.model.files);
  const dir = await mkdtemp(join(tmpdir(), 'wmco-preflight-'));
  const keyFile = await writeKeyFile(dir, setup.wrongKey ? generateEd25519KeyPair().private : key.private);
  if (setup.stopped) await sim.stop();
  const run = async (output: string[]): Promise<Outcome> => {
    const args = ['preflight', sim.host, ...sshFlags(sim, keyFile)];
    const { out: text, error } = await runWmco([
      ...args,
      ...['--timeout', '3', ...output, ...(setup.args ?? [])],
    ]);
    const report =
      output.length > 0 && text !== '' ? (JSON.parse(text) as PreflightReport) : ({} as PreflightReport);
    return { out: text, report, ...(error === undefined ? {} : { error }) };
  };
  try {
    return { table: await run([]), json: await run(['-o', 'json']) };
  } finally {
    if (!setup.stopped) await sim.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function statuses(report: PreflightReport): Record<string, string> {
  return Object.fromEntries(report.findings.map((f) => [f.check, f.status]));
}

const ALL_PASS = {
  address: 'pass',
  reachability: 'pass',
  ssh: 'pass',
  shell: 'pass',
  folders: 'pass',
  'os-build': 'pass',
  containers: 'pass',
  hostname: 'pass',
  disk: 'pass',
  firewall: 'pass',
};

test('a healthy host passes every check and the command succeeds', async (t) => {
  const { table, json } = await preflight({ model: { defaultShell: 'powershell' } });
  t.deepEqual(statuses(json.report), ALL_PASS);
  t.true(json.report.ok);
  t.is(json.error, undefined);
  t.is(table.error, undefined);
  t.regex(table.out, /^PASS {2}address/m);
  t.regex(table.out, /PowerShell/);
  t.regex(table.out, /also required on platform None \(not checked\):\n {2}- Only BYOH instances/);
  t.true(json.report.notes.length > 0);
  t.regex(table.out, /10 passed, 0 warnings, 0 failed, 0 skipped: ready to add to windows-instances/);
});

interface Expectation {
  readonly check: keyof typeof ALL_PASS;
  readonly status: 'warn' | 'fail';
  /** What the fix must name. */
  readonly fix: RegExp;
  /** Checks after a failure it blocks. */
  readonly skipped?: readonly string[];
}

/** Exactly `check` has `status` (with a fix naming `fix`); the checks a failure blocks are skipped. */
async function brokenOne(t: ExecutionContext, setup: HostSetup, e: Expectation): Promise<void> {
  const { table, json } = await preflight(setup);
  const expected: Record<string, string> = { ...ALL_PASS, [e.check]: e.status };
  for (const s of e.skipped ?? []) expected[s] = 'skip';
  t.deepEqual(statuses(json.report), expected);
  const finding = json.report.findings.find((f) => f.check === e.check);
  t.regex(finding?.fix ?? '', e.fix);
  t.regex(table.out, new RegExp(`^${e.status.toUpperCase()} +${e.check} `, 'm'));
  if (e.status === 'fail') {
    t.false(json.report.ok);
    t.regex(table.error ?? '', new RegExp(`not ready \\(failed: ${e.check}\\)`));
  } else {
    t.true(json.report.ok);
    t.is(table.error, undefined);
  }
}

const AFTER_SSH = ['shell', 'folders', 'os-build', 'containers', 'hostname', 'disk', 'firewall'];

test('nothing listening on the SSH port: reachability fails, the rest is skipped', async (t) => {
  await brokenOne(
    t,
    { stopped: true },
    {
      check: 'reachability',
      status: 'fail',
      fix: /Start-Service sshd/,
      skipped: ['ssh', ...AFTER_SSH],
    },
  );
});

test('a key the host does not have: ssh fails and names administrators_authorized_keys', async (t) => {
  await brokenOne(
    t,
    { wrongKey: true },
    {
      check: 'ssh',
      status: 'fail',
      fix: /administrators_authorized_keys/,
      skipped: AFTER_SSH,
    },
  );
});

test('a host refusing authentication: ssh fails', async (t) => {
  const setup = { faults: { refuseAuthentication: true } };
  await brokenOne(t, setup, { check: 'ssh', status: 'fail', fix: /icacls/, skipped: AFTER_SSH });
});

test('Windows 10 (build 19045): os-build fails', async (t) => {
  const setup = { model: { osBuild: 19045, ubr: 100 } };
  await brokenOne(t, setup, { check: 'os-build', status: 'fail', fix: /Windows Server 2022/ });
});

test('no Containers feature: containers warns that the join installs it and restarts', async (t) => {
  const setup = { model: { containersFeature: false } };
  await brokenOne(t, setup, { check: 'containers', status: 'warn', fix: /Install-WindowsFeature/ });
});

test('a hostname with an underscore: hostname fails and suggests a name', async (t) => {
  const setup = { model: { hostname: 'WIN_NODE' } };
  await brokenOne(t, setup, { check: 'hostname', status: 'fail', fix: /Rename-Computer -NewName win-node/ });
});

test('5 GiB free on C: disk fails', async (t) => {
  const setup = { model: { freeDiskBytes: 5 * 2 ** 30 } };
  await brokenOne(t, setup, { check: 'disk', status: 'fail', fix: /free space on C:/ });
});

test('no VXLAN rule: firewall fails with the rule to add', async (t) => {
  const rules = NODE_FIREWALL_RULES.filter((r) => r.protocol === 'TCP');
  await brokenOne(t, { rules }, { check: 'firewall', status: 'fail', fix: /-Protocol UDP -LocalPort 4789/ });
});

test('no kubelet rule: firewall warns that the join adds ContainerLogsPort', async (t) => {
  const rules = NODE_FIREWALL_RULES.filter((r) => r.localPort !== 10250);
  const { json } = await preflight({ rules });
  t.is(json.report.findings.find((f) => f.check === 'firewall')?.status, 'warn');
  t.regex(
    json.report.findings.find((f) => f.check === 'firewall')?.detail ?? '',
    /TCP 10250.*ContainerLogsPort/,
  );
});

test('vSphere: an old 2022 update fails os-build and the custom VXLAN port is checked', async (t) => {
  const rules = [...NODE_FIREWALL_RULES.slice(0, 2), { ...NODE_FIREWALL_RULES[2]!, localPort: 4800 }];
  const setup = { rules, model: { ubr: 500 }, args: ['--platform', 'VSphere', '--vxlan-port', '4800'] };
  await brokenOne(t, setup, { check: 'os-build', status: 'fail', fix: /cumulative update.*20348\.681/ });
  const { json } = await preflight({ rules, args: ['--platform', 'VSphere'] });
  t.regex(json.report.findings.find((f) => f.check === 'firewall')?.fix ?? '', /--vxlan-port/);
});

test('bad input is a clear error', async (t) => {
  const { table } = await preflight({ args: ['--platform', 'no such'] });
  t.regex(table.error ?? '', /--platform: "no such" is not a platform type name/);
});

test('a DNS name is resolved to IPv4 and the host behind it is checked', async (t) => {
  const { sim, key } = await startCheckedHost({
    address: loopback(),
    hostname: 'win-dns',
    rules: NODE_FIREWALL_RULES,
  });
  const dir = await mkdtemp(join(tmpdir(), 'wmco-preflight-'));
  try {
    const keyFile = await writeKeyFile(dir, key.private);
    const out: string[] = [];
    const ctx = await capturingContext(out);
    const resolve = (name: string): Promise<readonly string[]> =>
      name === 'win-dns.example.test' ? Promise.resolve([sim.host]) : Promise.reject(new Error('NXDOMAIN'));
    const command = preflightCommand(ctx, { ...REAL_PREFLIGHT_PORTS, resolve }).exitOverride();
    const args = ['win-dns.example.test', '--user', 'Administrator', '--key', keyFile, '-o', 'json'];
    await command.parseAsync([...args, '--port', String(sim.port)], { from: 'user' });
    const report = JSON.parse(out.join('\n')) as PreflightReport;
    t.is(report.ipv4, sim.host);
    t.true(report.ok);
    t.regex(
      report.findings[0]?.detail ?? '',
      new RegExp(`win-dns\\.example\\.test resolves to ${sim.host.replaceAll('.', '\\.')}`),
    );
  } finally {
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  }
});

test('C:\\k a junction: folders fails with the fix, the other host checks still run', async (t) => {
  const files = (f: FileSystem): void => {
    f.mkdirp('C:\\Users\\eve\\k');
    f.link('C:\\k', 'C:\\Users\\eve\\k', 'junction');
  };
  await brokenOne(t, { files }, { check: 'folders', status: 'fail', fix: /cmd \/c rmdir "C:\\k"/ });
});

test('a working area Users can write: the module refuses it at once, folders fails, nothing is written', async (t) => {
  let host: FileSystem | undefined;
  const files = (f: FileSystem): void => {
    host = f;
    f.mkdirp('C:\\ProgramData\\wmco');
  };
  await brokenOne(
    t,
    { files },
    {
      check: 'folders',
      status: 'fail',
      fix: /icacls "C:\\ProgramData\\wmco" \/remove:g \*S-1-5-32-545/,
      skipped: ['os-build', 'containers', 'hostname', 'disk', 'firewall'],
    },
  );
  t.deepEqual(host?.descendants('C:\\ProgramData\\wmco'), [], 'no module, no staging folder');
});
