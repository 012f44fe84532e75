import { spawn } from 'node:child_process';
import { access, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import test from 'ava';
import { findPwsh } from '@wmco/core/internal';
import { generateEd25519KeyPair } from '@wmco/sim';
import {
  NODE_FIREWALL_RULES,
  runWmco,
  sshFlags,
  startCheckedHost,
  writeKeyFile,
} from './in-process-cli.test-helper.js';

let nextOctet = 1;
/**
 * A loopback address of this worker alone: second octet from the process and worker thread, third in
 * 150-199 (the sim's own test hosts use 100-149, the operator's world 200-249, other files 127.0.x.x).
 */
function loopback(): string {
  nextOctet = nextOctet >= 250 ? 1 : nextOctet + 1;
  const worker = process.pid * 64 + (threadId % 64);
  return `127.${1 + (worker % 250)}.${150 + (Math.floor(worker / 250) % 50)}.${nextOctet + 1}`;
}

interface Run {
  readonly out: string;
  readonly error?: string;
  readonly dir: string;
  readonly host: string;
}

interface Setup {
  readonly wrongKey?: boolean;
  readonly stopped?: boolean;
}

/** A simulated WS2022 host with the node's firewall rules and a kubelet service with one proxy variable. */
async function hostcheck(t: { teardown: (f: () => Promise<void>) => void }, setup: Setup = {}): Promise<Run> {
  const { sim, key } = await startCheckedHost({
    address: loopback(),
    hostname: 'win-check',
    // The node's two TCP rules.
    rules: NODE_FIREWALL_RULES.slice(0, 2),
    model: { defaultShell: 'powershell' },
  });
  sim.model.scm.create({
    name: 'kubelet',
    commandLine: 'C:\\k\\kubelet.exe --config=C:\\k\\kubelet.conf',
    startType: 'auto',
    dependencies: ['containerd'],
    description: 'OpenShift managed kubelet',
    environment: ['HTTP_PROXY=http://proxy:3128'],
  });
  const tmp = await mkdtemp(join(tmpdir(), 'wmco-hostcheck-'));
  t.teardown(() => rm(tmp, { recursive: true, force: true }));
  const keyFile = await writeKeyFile(tmp, setup.wrongKey ? generateEd25519KeyPair().private : key.private);
  if (setup.stopped) await sim.stop();
  else t.teardown(() => sim.stop());
  const dir = join(tmp, 'fixtures');
  const args = ['hostcheck', sim.host, ...sshFlags(sim, keyFile)];
  const run = await runWmco([...args, '--timeout', '3', '--out', dir]);
  return { ...run, dir, host: sim.host };
}

const readJson = async (dir: string, file: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, unknown>;

interface Fixture {
  readonly items: { value: Record<string, unknown>; types: Record<string, string | null> }[];
}

test('connects over SSH, runs observe and the capture, and writes one fixture per source', async (t) => {
  const run = await hostcheck(t);
  t.is(run.error, undefined, run.out);
  const files = (await readdir(run.dir)).sort();
  const index = await readJson(run.dir, 'index.json');
  const fixtures = index.fixtures as { name: string; file: string; items: number; error: string | null }[];
  t.is(fixtures.length, 17);
  t.deepEqual(files, ['index.json', 'observe.json', ...fixtures.map((f) => f.file)].sort());
  t.true(fixtures.every((f) => f.error === null));
  t.regex(run.out, /wrote 19 files to /);
  t.regex(run.out, /^observe +- +ok$/m);
  // The host module's observe, through the same session the operator uses.
  const observe = (await readJson(run.dir, 'observe.json')) as {
    state: { firewallRules: unknown[]; evaluated: Record<string, unknown> };
  };
  t.deepEqual(observe.state.firewallRules.length, 2);
  // NODE_IP, the read-only pre-script, ran: the simulated host's address is its loopback address.
  t.deepEqual(observe.state.evaluated.NODE_IP, { ok: true, output: run.host });
});

test('the fixtures keep Windows shapes: LocalPort string[] of one, REG_MULTI_SZ as String[]', async (t) => {
  const run = await hostcheck(t);
  const filters = (await readJson(run.dir, 'net-firewall-port-filter.json')) as unknown as Fixture;
  t.deepEqual(
    filters.items.map((i) => i.value.LocalPort),
    [['10250'], ['9182']],
  );
  t.is(filters.items[0]?.types.LocalPort, 'System.String[]');
  const registry = (await readJson(run.dir, 'service-registry.json')) as unknown as Fixture;
  const env = registry.items.find((i) => i.value.Name === 'Environment');
  t.deepEqual(env?.value.Value, ['HTTP_PROXY=http://proxy:3128']);
  t.is(env?.types.Value, 'System.String[]');
  const services = (await readJson(run.dir, 'win32-service.json')) as unknown as Fixture;
  t.like(
    services.items.find((i) => i.value.Name === 'kubelet'),
    {
      value: { State: 'Stopped', StartMode: 'Auto', ProcessId: 0 },
      types: { ProcessId: 'System.UInt32', State: 'System.String' },
    },
  );
});

test('a key the host does not accept: refused clearly, nothing written', async (t) => {
  const run = await hostcheck(t, { wrongKey: true });
  t.regex(run.error ?? '', /^hostcheck: cannot run on 127\.\S+: .*administrators_authorized_keys/);
  await t.throwsAsync(access(run.dir));
});

test('nothing listening: refused clearly as unreachable, nothing written', async (t) => {
  const run = await hostcheck(t, { stopped: true });
  t.regex(
    run.error ?? '',
    /^hostcheck: cannot run on 127\.\S+: cannot reach .*ECONNREFUSED.*Start-Service sshd/,
  );
  await t.throwsAsync(access(run.dir));
});

// The Pester suite's side: the fixture files load back as objects with Windows' .NET types.
const pwsh = findPwsh(process.env);
const IMPORTER = fileURLToPath(
  new URL('../../../core/fixtures/windows/Import-WmcoFixture.ps1', import.meta.url),
);
const loadTitle = 'Import-WmcoFixture loads the fixtures with their .NET types (one pwsh run)';
if ('missing' in pwsh) test.skip(`${loadTitle} (skipped: ${pwsh.missing})`, () => undefined);
else
  test(loadTitle, async (t) => {
    const run = await hostcheck(t);
    const script = [
      `. '${IMPORTER}'`,
      `$f = @(Import-WmcoFixture '${join(run.dir, 'net-firewall-port-filter.json')}')`,
      `$os = @(Import-WmcoFixture '${join(run.dir, 'win32-operatingsystem.json')}')`,
      `$svc = @(Import-WmcoFixture '${join(run.dir, 'win32-service.json')}' -Where @{ Name = 'kubelet' })`,
      "Write-Output ('filters=' + $f.Count + ' type=' + $f[0].LocalPort.GetType().FullName + ' count=' + $f[0].LocalPort.Count + ' tn=' + $f[0].PSObject.TypeNames[0])",
      "Write-Output ('boot=' + $os[0].LastBootUpTime.GetType().FullName + ' pid=' + $svc[0].ProcessId.GetType().FullName)",
    ].join('\n');
    // A script file: `-Command -` would read stdin line by line, as typed input.
    const file = join(run.dir, '..', 'load.ps1');
    await writeFile(file, script);
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(pwsh.path, ['-NoProfile', '-NonInteractive', '-File', file], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (b: Buffer) => (text += b.toString()));
      child.stderr.on('data', (b: Buffer) => (text += b.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(text));
    });
    t.regex(
      out,
      /filters=2 type=System\.String\[\] count=1 tn=Microsoft\.Management\.Infrastructure\.CimInstance#root\/StandardCimv2\/MSFT_NetProtocolPortFilter/,
    );
    t.regex(out, /boot=System\.DateTime pid=System\.UInt32/);
  });
