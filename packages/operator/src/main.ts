#!/usr/bin/env node
// The composition root: the only file that touches tsyringe's global container (STYLE §3, §5).
import 'reflect-metadata';
import { basename } from 'node:path';
import { container } from 'tsyringe';
import { selectedCommand } from './cli/command-table.js';
import { exitCodeOf, throwOnExit } from './cli/exit-code.js';
import { LeadershipLostError } from './cli/leadership-lost-error.js';
import { buildProgram } from './cli/program.js';

// `kubectl wmco ...` runs the kubectl-wmco executable (kubectl's plugin form): the same commands.
const name = basename(process.argv[1] ?? '').startsWith('kubectl-wmco') ? 'kubectl wmco' : 'wmco';
const args = process.argv.slice(2);
try {
  // The built-in providers this build was made with (baked-providers.json; the Containerfile's PROVIDERS),
  // loaded only for a command that reads them.
  const builtinProviders =
    selectedCommand(args)?.usesProviders === true
      ? await (await import('./providers/baked-providers.js')).loadBakedProviders()
      : [];
  const program = await buildProgram(
    {
      container: container.createChildContainer(),
      builtinProviders,
      stdout: (text) => process.stdout.write(`${text}\n`),
      stderr: (text) => process.stderr.write(`${text}\n`),
      env: process.env,
    },
    args,
    name,
  );
  throwOnExit(program);
  await program.parseAsync(args, { from: 'user' });
} catch (err) {
  const code = exitCodeOf(err);
  // commander printed its own message (usage errors, help, version); anything else is ours to print.
  if (code === 1) process.stderr.write(`wmco: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = code;
  // Nothing of a deposed leader may outlive it (a watch, a timer, a retry): exit now, not when idle.
  if (err instanceof LeadershipLostError) process.exit(1);
}
