#!/usr/bin/env node
// The composition root: the only file that touches tsyringe's global container (STYLE §3, §5).
import 'reflect-metadata';
import { container } from 'tsyringe';
import { LeadershipLostError } from './cli/leadership-lost-error.js';
import { buildProgram } from './cli/program.js';
import { loadBakedProviders } from './providers/baked-providers.js';

try {
  // The built-in providers this build was made with (baked-providers.json; the Containerfile's PROVIDERS).
  const builtinProviders = await loadBakedProviders();
  const program = buildProgram({
    container: container.createChildContainer(),
    builtinProviders,
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
    env: process.env,
  });
  await program.parseAsync(process.argv);
} catch (err) {
  process.stderr.write(`wmco: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
  // Nothing of a deposed leader may outlive it (a watch, a timer, a retry): exit now, not when idle.
  if (err instanceof LeadershipLostError) process.exit(1);
}
