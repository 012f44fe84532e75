import test from 'ava';
import type { CommanderError } from 'commander';
import { newRootContainer } from '@wmco/core';
import { defineProvider } from '@wmco/core/provider';
import type { CliContext } from './cli-context.js';
import { exitCodeOf } from './exit-code.js';
import { simCommand, type RunSim } from './sim-command.js';

const provider = (platform: string) =>
  defineProvider({
    id: platform.toLowerCase(),
    platform,
    contractVersion: '1.0.0',
    register: () => undefined,
  });

/** `wmco sim <args>` with a world loader that records whether anything would have started. */
async function sim(
  args: readonly string[],
): Promise<{ started: boolean; error?: CommanderError; err: string[] }> {
  let started = false;
  const err: string[] = [];
  const ctx: CliContext = {
    container: newRootContainer(),
    builtinProviders: ['None', 'AWS', 'VSphere'].map(provider),
    stdout: () => undefined,
    stderr: (s) => err.push(s),
    env: {},
  };
  const run: RunSim = () => {
    started = true;
    return Promise.resolve();
  };
  const cmd = simCommand(ctx, () => Promise.resolve({ runSim: run }))
    .exitOverride()
    .configureOutput({ writeErr: (s) => err.push(s) });
  try {
    await cmd.parseAsync([...args], { from: 'user' });
    return { started, err };
  } catch (e) {
    return { started, error: e as CommanderError, err };
  }
}

const usage = test.macro(async (t, args: readonly string[], message: RegExp) => {
  const r = await sim(args);
  t.false(r.started, 'nothing started');
  t.is(exitCodeOf(r.error), 2, 'a usage error: wmco exits 2');
  t.regex(r.err.join('\n'), message);
});

test(
  '--platform None with --machinesets',
  usage,
  ['--platform', 'None', '--machinesets', '1'],
  /--machinesets needs a platform with a Machine API .* not None/,
);
test(
  '--platform aws (spelled otherwise)',
  usage,
  ['--platform', 'aws'],
  /"aws" is not a platform this build serves: did you mean AWS\?/,
);
test(
  '--platform of no provider',
  usage,
  ['--platform', 'Azure'],
  /"Azure" is not a platform this build serves \(one of None, AWS, VSphere\)/,
);
test(
  '--hosts with --hosts-file',
  usage,
  ['--hosts', '2', '--hosts-file', 'x.yaml'],
  /--hosts and --hosts-file cannot be used together/,
);
test('--seed without --cluster', usage, ['--seed'], /apply only with --cluster/);
test('--replicas without --machinesets', usage, ['--replicas', '2'], /--replicas needs --machinesets/);
test('--hosts out of range', usage, ['--hosts', '0'], /--hosts: "0" is not a number from 1 to 50/);
test(
  '--timeout not a number',
  usage,
  ['--hosts', '1', '--timeout', 'soon'],
  /--timeout: "soon" is not a number/,
);
test('--host-engine unknown', usage, ['--host-engine', 'wsl'], /Allowed choices are model, powershell/);
test(
  'every problem at once',
  usage,
  ['--platform', 'None', '--machinesets', '1', '--replicas', '99'],
  /Machine API.*; --replicas: "99"/,
);

test('good flags start the world', async (t) => {
  const r = await sim(['--platform', 'VSphere', '--machinesets', '1', '--replicas', '2']);
  t.true(r.started);
  t.is(r.error, undefined);
});
