import { MODULE_HASH_MISMATCH, checkedModuleRef, isModulePath, type ModuleRef } from './invocation.js';
import { WORK_AREA_CHECK } from './session-invocation.js';

/**
 * First contact with a host that has no host module yet, in one PowerShell start (ADR 0022): the module's
 * bytes read from stdin (one line of base64 before the request), their SHA-256 checked against the hash this
 * operator ships, the module loaded from them, the working area and its staging folder checked and protected
 * by it (a refusal prints `SESSION_FOLDER_REFUSED_MARKER` and nothing is written), the bytes written to the
 * hash-named path (through `.part`, so no half-written module is ever at that path), and the request run by
 * the module.
 */
export function hostInstallInvocationScript(module: ModuleRef): string {
  const { modulePath, sha256 } = checkedModuleRef(module);
  return (
    "$ErrorActionPreference = 'Stop'; $ProgressPreference = 'SilentlyContinue'; " +
    '$utf8 = New-Object System.Text.UTF8Encoding $false; ' +
    '[Console]::InputEncoding = [Console]::OutputEncoding = $utf8; ' +
    '$stdin = [Console]::In.ReadToEnd(); ' +
    '$cut = $stdin.IndexOf([char]10); ' +
    '$bytes = [Convert]::FromBase64String($stdin.Substring(0, $cut).Trim()); ' +
    "$hash = -join ([System.Security.Cryptography.SHA256]::Create().ComputeHash($bytes) | ForEach-Object { $_.ToString('x2') }); " +
    `if ($hash -ne '${sha256}') { throw "${MODULE_HASH_MISMATCH}: the module sent has SHA-256 $hash" }; ` +
    '$null = New-Module -Name WmcoHost -ScriptBlock ([scriptblock]::Create($utf8.GetString($bytes).TrimStart([char]0xFEFF))); ' +
    WORK_AREA_CHECK +
    `[System.IO.File]::WriteAllBytes('${modulePath}.part', $bytes); ` +
    `Move-Item -Force -LiteralPath '${modulePath}.part' -Destination '${modulePath}'; ` +
    'Invoke-WmcoHost -RequestJson $stdin.Substring($cut + 1)'
  );
}

/** What the install invocation reads on stdin: the module as one base64 line, then the request. */
export function installInvocationInput(moduleBytes: Buffer, requestJson: string): string {
  return `${moduleBytes.toString('base64')}\n${requestJson}`;
}

/** The module named by a script of exactly `hostInstallInvocationScript`'s form, or undefined. */
export function parseHostInstallInvocation(script: string): ModuleRef | undefined {
  const path = /WriteAllBytes\('([^']*)\.part', \$bytes\)/.exec(script)?.[1];
  const sha256 = /if \(\$hash -ne '([0-9a-f]{64})'\)/.exec(script)?.[1];
  if (path === undefined || sha256 === undefined || !isModulePath(path)) return undefined;
  try {
    return hostInstallInvocationScript({ modulePath: path, sha256 }) === script
      ? { modulePath: path, sha256 }
      : undefined;
  } catch {
    return undefined;
  }
}
