import test from 'ava';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureKubectl } from '@wmco/sim';
import { OPERATOR_MAIN } from '../operator-main.js';
import { docCommands, fillPlaceholders, MACHINE_DOCS, shCommands, type DocCommand } from './doc-commands.js';
import type { SimWorld } from './sim-world.js';
import { joinAll, NS, testWorld, until } from './world-fixture.js';

// Issue 30 item 2: every fenced shell command of README.md, docs/install.md, docs/byoh.md, docs/upgrades.md
// and the admin docs (scheduling, storage, disconnected, limitations; machines.md in a world of its own)
// that targets the simulated world runs, as written (placeholders filled), against a running world, and
// must exit 0. The rule of which commands those are is at the top of doc-commands.ts; the commands it leaves out
// are printed with the reason (t.log). The world stands for the one `wmco sim --hosts 2 --keep
// --kubeconfig-out /tmp/wmco.kubeconfig` leaves running, as an admin would use it:
// - hosts named win-a and win-b (the docs' node names), joined from `windows-instances`, operator running;
// - the real kubectl (/usr/bin/kubectl) and `wmco` on PATH (a shim running this checkout's CLI, as the
//   image's PATH has it), KUBECONFIG set to the world's admin kubeconfig, HOME a fresh folder whose
//   `.ssh/windows-nodes` is the world's private key (the file the docs' `kubectl create secret` names);
// - each command runs in `bash -o pipefail -c`, from the repository root.
// What the test does beyond the commands, and nothing else: before each `kubectl create secret generic
// cloud-private-key` it deletes that Secret (the docs create it once, on a cluster that has none), and
// `/tmp/wmco.kubeconfig` (what the docs' `wmco sim --kubeconfig-out` writes) is this world's kubeconfig.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

interface Shell {
  readonly env: NodeJS.ProcessEnv;
}

function shell(kubeconfig: string, privateKey: string): Shell {
  const home = mkdtempSync(join(tmpdir(), 'wmco-doc-commands-'));
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'windows-nodes'), privateKey, { mode: 0o600 });
  const bin = join(home, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'wmco'), `#!/bin/sh\nexec "${process.execPath}" "${OPERATOR_MAIN}" "$@"\n`);
  chmodSync(join(bin, 'wmco'), 0o755);
  const path = `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`;
  return { env: { PATH: path, HOME: home, KUBECONFIG: kubeconfig } };
}

function runIn(sh: Shell, command: string): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    execFile(
      'bash',
      ['-o', 'pipefail', '-c', command],
      { cwd: repoRoot, env: sh.env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        done({ code, out: `${stdout}${stderr}`.slice(-2000) });
      },
    );
  });
}

test('the rule reads only sh fences, joins continued lines and drops comment lines', (t) => {
  const md = [
    '```yaml',
    'kubectl not-run',
    '```',
    '```sh',
    '# a comment',
    'kubectl create secret generic x \\',
    '  -n ns',
    '',
    'wmco status   # trailing comment stays for bash',
    '```',
    '- a list item:',
    '  ```sh',
    '  kubectl get events -A',
    '  ```',
  ].join('\n');
  t.deepEqual(shCommands('d.md', md), [
    { doc: 'd.md', line: 6, command: 'kubectl create secret generic x -n ns' },
    { doc: 'd.md', line: 9, command: 'wmco status   # trailing comment stays for bash' },
    { doc: 'd.md', line: 13, command: 'kubectl get events -A' },
  ]);
});

test('every world-targeting fenced command of the README, install, byoh, upgrades and admin docs succeeds', async (t) => {
  const missing = ensureKubectl();
  if (missing) return t.fail(missing);
  const { run, skipped } = docCommands(repoRoot);
  for (const s of skipped) t.log(`not run: ${s.doc}:${String(s.line)} ${s.command} (${s.why})`);
  t.true(run.some((c) => c.command.startsWith('kubectl create secret generic cloud-private-key')));
  for (const doc of ['docs/storage.md', 'docs/disconnected.md'])
    t.true(
      run.some((c) => c.doc === doc),
      `${doc}'s commands are run`,
    );
  const { world } = await testWorld([{ hostname: 'win-a' }, { hostname: 'win-b' }]);
  try {
    await joinAll(world);
    const sh = shell(world.adminKubeconfig, world.privateKey);
    const failures: string[] = [];
    // The docs' <node>: one of the world's Windows nodes.
    const values = (): Promise<Record<string, string>> => Promise.resolve({ node: 'win-a' });
    for (const c of run) {
      const failure = await runOne(sh, world.adminKubeconfig, c, values);
      if (failure !== undefined) failures.push(failure);
    }
    t.deepEqual(failures, []);
  } finally {
    await world.stop();
  }
});

/**
 * The placeholders of docs/machines.md, read before each command: `<machineset>` the world's Windows
 * MachineSet, `<machine>` one of its Machines not being deleted, `<n-1>` one less than its replicas.
 */
async function machineValues(world: SimWorld): Promise<Record<string, string>> {
  const machines = (await world.machineApi().machines('win')).filter((m) => !m.metadata.deletionTimestamp);
  const machine = machines.map((m) => m.metadata.name).sort()[0];
  if (machine === undefined) throw new Error('no Machine of MachineSet win');
  return { machineset: 'win', machine, 'n-1': String(machines.length - 1) };
}

test('every world-targeting fenced command of docs/machines.md succeeds in a world with a Windows MachineSet', async (t) => {
  const missing = ensureKubectl();
  if (missing) return t.fail(missing);
  const { run, skipped } = docCommands(repoRoot, MACHINE_DOCS);
  for (const s of skipped) t.log(`not run: ${s.doc}:${String(s.line)} ${s.command} (${s.why})`);
  t.true(run.some((c) => c.command.startsWith('kubectl delete machine')));
  // The Machines need not join for these commands: the operator does not run, so none is configured.
  const { world } = await testWorld([], { platform: 'VSphere' });
  try {
    await world.machineApi().createMachineSet({ name: 'win', replicas: 2, platform: 'VSphere' });
    await until('two Machines', async () =>
      (await world.machineApi().machines('win')).length === 2 ? true : undefined,
    );
    const sh = shell(world.adminKubeconfig, world.privateKey);
    const failures: string[] = [];
    for (const c of run) {
      const failure = await runOne(sh, world.adminKubeconfig, c, () => machineValues(world));
      if (failure !== undefined) failures.push(failure);
    }
    t.deepEqual(failures, []);
  } finally {
    await world.stop();
  }
});

async function runOne(
  sh: Shell,
  kubeconfig: string,
  c: DocCommand,
  values: () => Promise<Record<string, string>>,
): Promise<string | undefined> {
  if (/\bcreate secret generic cloud-private-key\b/.test(c.command)) {
    await coreApi(kubeconfig).deleteNamespacedSecret({ name: 'cloud-private-key', namespace: NS });
  }
  const command = fillPlaceholders(c.command, await values());
  const r = await runIn(sh, command.replaceAll('/tmp/wmco.kubeconfig', kubeconfig));
  return r.code === 0
    ? undefined
    : `${c.doc}:${String(c.line)} ${command}\n  exit ${String(r.code)}: ${r.out}`;
}

function coreApi(kubeconfig: string): CoreV1Api {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  return kc.makeApiClient(CoreV1Api);
}

test('placeholders are filled with the world values; one without a value fails; redirections are not placeholders', (t) => {
  t.is(
    fillPlaceholders('kubectl get --raw "/api/v1/nodes/<node>/x" | tail', { node: 'win-a' }),
    'kubectl get --raw "/api/v1/nodes/win-a/x" | tail',
  );
  t.is(fillPlaceholders('wc -l < file', {}), 'wc -l < file');
  t.throws(() => fillPlaceholders('kubectl delete machine <machine>', {}), { message: /<machine>/ });
});
