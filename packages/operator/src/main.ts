#!/usr/bin/env node
// The composition root: the only file that touches tsyringe's global container (STYLE §3, §5).
import 'reflect-metadata';
import { container } from 'tsyringe';
import { buildProgram } from './cli/program.js';
import { BUILTIN_PROVIDERS } from './providers/builtin-providers.js';

const program = buildProgram({
  container: container.createChildContainer(),
  builtinProviders: BUILTIN_PROVIDERS,
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
});

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.stderr.write(`wmco: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
