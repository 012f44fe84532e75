import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import test from 'ava';
import { staticPackages } from './static-packages.test-helper.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

// What makes a start slow (measured: the Kubernetes client about 0.45 s, @wmco/core 0.6 s, zod through the
// provider entry 0.1 s); `pnpm bench cli` prints the times.
const HEAVY = ['@kubernetes/client-node', '@wmco/core', '@wmco/core/provider', 'zod', 'yaml'];

test('wmco --help and wmco version load neither the Kubernetes client nor the core', async (t) => {
  const atStart = await staticPackages(join(dist, 'main.js'));
  t.true(atStart.has('commander'), 'the walk follows the imports');
  t.deepEqual(
    HEAVY.filter((p) => atStart.has(p)),
    [],
  );
  const version = await staticPackages(join(dist, 'cli', 'version-command.js'));
  t.deepEqual(
    HEAVY.filter((p) => p !== 'yaml' && version.has(p)),
    [],
  );
  // status does load them: the walk would see them if main.js reached it statically.
  t.true((await staticPackages(join(dist, 'cli', 'status-command.js'))).has('@kubernetes/client-node'));
});

async function wmco(bin: string, ...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(dist, bin), ...args]);
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

test('usage errors exit 2, help and --version exit 0, as kubectl does', async (t) => {
  t.like(await wmco('main.js', '--help'), { code: 0 });
  t.deepEqual(await wmco('main.js', '--version'), { code: 0, out: '0.1.0\n' });
  const unknown = await wmco('main.js', 'bogus');
  t.is(unknown.code, 2);
  t.regex(unknown.out, /unknown command 'bogus'/);
  const option = await wmco('main.js', 'version', '--nope');
  t.is(option.code, 2);
  t.regex(option.out, /unknown option '--nope'/);
  t.is((await wmco('main.js')).code, 2, 'no command: help on stderr, a usage error');
});

test('an output format the command does not print is a usage error naming the ones it does', async (t) => {
  const bad = await wmco('main.js', 'version', '-o', 'wide');
  t.is(bad.code, 2);
  t.regex(bad.out, /Allowed choices are json, yaml/);
});

test('a command that runs and fails exits 1 with its message', async (t) => {
  const bad = await wmco('main.js', 'status', '--kubeconfig', '/nonexistent/kubeconfig');
  t.is(bad.code, 1);
  t.regex(bad.out, /^wmco: .*nonexistent/m);
});

test('the kubectl plugin form answers as `kubectl wmco`', async (t) => {
  const help = await wmco('kubectl-wmco.js', '--help');
  t.is(help.code, 0);
  t.regex(help.out, /^Usage: kubectl wmco \[options\] \[command\]/m);
  t.regex((await wmco('kubectl-wmco.js', 'version')).out, /^wmco version: "0\.1\.0"/);
});
