import test, { type ExecutionContext } from 'ava';
import { findPwsh } from '@wmco/core';
import type { HostEngine } from './sim-world-options.js';

/**
 * Bugs of WmcoHost.psm1 (issue 25's review list) that the real module hits on the PowerShell engine, so
 * its variants fail until their fixes are merged. Empty: every powershell variant must pass.
 */
export const KNOWN_MODULE_BUGS: readonly string[] = [];

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
  if (KNOWN_MODULE_BUGS.length > 0) {
    const bugs = KNOWN_MODULE_BUGS.map((b) => b.split(' ')[0]).join(', ');
    test.serial.failing(
      `${title} [powershell engine: fails until the module fixes of ${bugs} are merged]`,
      (t) => body(t, 'powershell'),
    );
    return;
  }
  test.serial(`${title} [powershell engine]`, (t) => body(t, 'powershell'));
}
