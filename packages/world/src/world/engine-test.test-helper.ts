import test, { type ExecutionContext } from 'ava';
import { findPwsh } from '@wmco/core/internal';
import type { HostEngine } from './sim-world-options.js';

type Body = (t: ExecutionContext, engine: HostEngine) => Promise<void>;

/**
 * One e2e scenario on both host engines: the TypeScript model, and the PowerShell engine (the delivered
 * WmcoHost.psm1 in a real pwsh). Without PowerShell 7 the second is skipped, naming why.
 */
export function engineTest(title: string, body: Body): void {
  test.serial(title, (t) => body(t, 'model'));
  powershellTest(title, body);
}

/** The PowerShell engine's variant of a scenario whose model variant is registered elsewhere. */
export function powershellTest(title: string, body: Body): void {
  const pwsh = findPwsh(process.env);
  if ('missing' in pwsh) {
    test.serial.skip(`${title} [powershell engine skipped: ${pwsh.missing}]`, (t) => body(t, 'powershell'));
    return;
  }
  test.serial(`${title} [powershell engine]`, (t) => body(t, 'powershell'));
}
