import { join } from 'node:path';
import { findPwsh } from '@wmco/core/internal';
import type { PowerShellEngineOptions } from '@wmco/sim';
import type { HostEngine } from './sim-world-options.js';

/** Parses `--host-engine`: `model` or `powershell`. */
export function parseHostEngine(raw: string): HostEngine {
  if (raw === 'model' || raw === 'powershell') return raw;
  throw new Error(`--host-engine: "${raw}" is not an engine (model, powershell)`);
}

/**
 * The PowerShell engine's options for a world whose folder is `dir` (hosts' drives under `dir/hosts`), or
 * undefined for the model. Without PowerShell 7 it fails with the reason `findPwsh` gives.
 */
export function powershellEngineFor(
  engine: HostEngine | undefined,
  dir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): PowerShellEngineOptions | undefined {
  if (engine === undefined || engine === 'model') return undefined;
  const found = findPwsh(env);
  if ('missing' in found) throw new Error(`the powershell host engine needs PowerShell 7: ${found.missing}`);
  return { pwsh: found.path, dir: join(dir, 'hosts') };
}
