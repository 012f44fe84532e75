import test from 'ava';
import { newRootContainer } from '@wmco/core';
import { loadBuiltinProviders } from '../providers/baked-providers.js';
import type { CliContext } from './cli-context.js';
import { COMMANDS, selectedCommand } from './command-table.js';

test('each summary wmco --help lists is the loaded command’s own description', async (t) => {
  const ctx: CliContext = {
    container: newRootContainer(),
    builtinProviders: await loadBuiltinProviders(),
    stdout: () => undefined,
    stderr: () => undefined,
    env: {},
  };
  for (const entry of COMMANDS) {
    const command = await entry.load(ctx);
    t.is(command.name(), entry.name);
    t.is(command.description(), entry.summary, `${entry.name}: update command-table.ts`);
  }
});

test('the selected command is the first word that is not an option, or the one help names', (t) => {
  t.is(selectedCommand(['status', '-n', 'x'])?.name, 'status');
  t.is(selectedCommand(['--kubeconfig=k', 'plan'])?.name, 'plan');
  t.is(selectedCommand(['help', 'reboot'])?.name, 'reboot');
  t.is(selectedCommand(['--help']), undefined);
  t.is(
    selectedCommand(['--log-level', 'debug', 'run'])?.name,
    'run',
    'a global option value is not a command',
  );
  t.is(selectedCommand(['nonsense']), undefined);
});
