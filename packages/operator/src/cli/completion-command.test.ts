import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import test from 'ava';
import { newRootContainer } from '@wmco/core';
import type { CliContext } from './cli-context.js';
import { throwOnExit } from './exit-code.js';
import { buildProgram } from './program.js';

const run = promisify(execFile);

async function script(shell: string): Promise<string> {
  const out: string[] = [];
  const ctx: CliContext = {
    container: newRootContainer(),
    builtinProviders: [],
    stdout: (s) => out.push(s),
    stderr: (s) => out.push(s),
    env: {},
  };
  const program = await buildProgram(ctx, ['completion', shell]);
  throwOnExit(program);
  await program.parseAsync(['completion', shell], { from: 'user' });
  return out.join('\n');
}

/** What bash completes for the words of a command line (the last one being typed). */
async function complete(bashScript: string, words: readonly string[]): Promise<string[]> {
  const line = [
    bashScript,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_wmco',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const { stdout } = await run('bash', ['-c', line]);
  return stdout.split('\n').filter((l) => l !== '');
}

test('bash completes sub-commands, a command options and the values of -o', async (t) => {
  const bash = await script('bash');
  t.deepEqual(await complete(bash, ['wmco', 'st']), ['status']);
  const statusOptions = await complete(bash, ['wmco', 'status', '--']);
  for (const o of ['--watch', '--no-headers', '--kubeconfig', '--output'])
    t.true(statusOptions.includes(o), o);
  t.deepEqual(await complete(bash, ['wmco', 'status', '-o', '']), [
    'table',
    'wide',
    'json',
    'yaml',
    'name',
    'jsonpath=',
  ]);
  t.deepEqual(await complete(bash, ['wmco', 'status', '-n', 'x', '--wat']), ['--watch']);
});

test('zsh gets the same function through bashcompinit; an unknown shell is a usage error', async (t) => {
  t.regex(await script('zsh'), /bashcompinit[\s\S]*complete -o default -F _wmco wmco kubectl-wmco/);
  await t.throwsAsync(script('fish'), { message: /Allowed choices are bash, zsh/ });
});
