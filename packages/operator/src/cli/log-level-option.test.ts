import test from 'ava';
import { Command } from 'commander';
import { globalLogLevel, logLevelOption } from './log-level-option.js';

async function levelSeen(args: readonly string[]): Promise<{ logLevel?: string }> {
  let seen: { logLevel?: string } = {};
  const program = new Command('wmco').addOption(logLevelOption()).exitOverride();
  program.addCommand(
    new Command('run').exitOverride().action((_flags: unknown, cmd: Command) => {
      seen = globalLogLevel(cmd);
    }),
  );
  await program.parseAsync([...args], { from: 'user' });
  return seen;
}

test('--log-level is global: before or after the sub-command', async (t) => {
  t.deepEqual(await levelSeen(['--log-level', 'debug', 'run']), { logLevel: 'debug' });
  t.deepEqual(await levelSeen(['run', '--log-level', 'warn']), { logLevel: 'warn' });
  t.deepEqual(await levelSeen(['run']), {});
});

test('an unknown level is a usage error naming the levels', async (t) => {
  await t.throwsAsync(levelSeen(['--log-level', 'loud', 'run']), {
    message: /Allowed choices are debug, info, warn, error/,
  });
});
