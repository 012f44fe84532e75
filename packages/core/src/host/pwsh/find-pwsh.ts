import { existsSync } from 'node:fs';

/** Where PowerShell 7 (and Pester) are, or why they are not here. */
export type PwshLocation =
  { readonly path: string; readonly pester: string | undefined } | { readonly missing: string };

/**
 * Finds the PowerShell the project's set-up installed (`scripts/toolchain.sh` exports `WMCO_PWSH`,
 * `WMCO_PESTER`, or `WMCO_PWSH_MISSING` with the reason). The caller passes its environment: core reads
 * no `process.env` of its own. A test that needs PowerShell skips with `missing` as its message.
 */
export function findPwsh(env: Readonly<Record<string, string | undefined>>): PwshLocation {
  const path = env.WMCO_PWSH;
  if (path === undefined || path === '') {
    return {
      missing:
        env.WMCO_PWSH_MISSING ??
        'WMCO_PWSH is not set: run through scripts/toolchain.sh (npm test) to install PowerShell',
    };
  }
  if (!existsSync(path)) return { missing: `WMCO_PWSH names ${path}, which does not exist` };
  const pester = env.WMCO_PESTER;
  return { path, pester: pester !== undefined && existsSync(pester) ? pester : undefined };
}
