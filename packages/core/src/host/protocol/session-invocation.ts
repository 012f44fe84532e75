import { MODULE_HASH_MISMATCH, checkedModuleRef, isModulePath, type ModuleRef } from './invocation.js';

/**
 * One PowerShell process per connection (ADR 0026): powershell.exe starts once, loads the host module once,
 * then answers requests read from stdin, one JSON line each, until the client closes stdin. Starting
 * powershell.exe costs about half a second on a real host; a join used to pay it four times.
 */

/** Printed once the module is loaded (and, for a first contact, the operator's folders protected). */
export const SESSION_READY_MARKER = 'wmco-session-ready';
/** Prefix of the line that carries one request's JSON result; other lines on stdout are not results. */
export const SESSION_RESULT_PREFIX = 'wmco-result ';
/**
 * Printed on stdout (then exit 3) when the session finds no module at its path, or one with another SHA-256:
 * the operator sends the module and starts again. Not stderr: powershell.exe -EncodedCommand writes stderr as
 * CLIXML when it is not a console, and may wrap a long line (the path) across two records.
 */
export const SESSION_MODULE_MISSING_MARKER = 'wmco-module-missing';
/**
 * Printed on stdout (then exit 4) when a first contact finds the operator's working area unusable (a reparse
 * point, writable by non-administrators, another owner), followed by the module's one-line refusal. Nothing
 * was written on the host.
 */
export const SESSION_FOLDER_REFUSED_MARKER = 'wmco-folder-refused';

const NEW_MODULE =
  '$null = New-Module -Name WmcoHost -ScriptBlock ([scriptblock]::Create($utf8.GetString($bytes).TrimStart([char]0xFEFF))); ';

/**
 * First contact, once the module's checked bytes are loaded: the module's Initialize-WmcoWorkArea checks
 * (and creates, or takes over) the working area and its staging folder before anything is written there.
 */
export const WORK_AREA_CHECK =
  '$refused = Initialize-WmcoWorkArea; ' +
  `if ($null -ne $refused) { [Console]::Out.WriteLine('${SESSION_FOLDER_REFUSED_MARKER} ' + $refused); [Console]::Out.Flush(); exit 4 }; `;

const HASH_OF_BYTES =
  "$hash = -join ([System.Security.Cryptography.SHA256]::Create().ComputeHash($bytes) | ForEach-Object { $_.ToString('x2') }); ";

const MISSING = `[Console]::Out.WriteLine('${SESSION_MODULE_MISSING_MARKER}`;
const EXIT_MISSING = '[Console]::Out.Flush(); exit 3';

/**
 * The module's bytes from its file, checked against the hash this operator ships; a missing file or another
 * hash is said on stdout (`SESSION_MODULE_MISSING_MARKER`), never thrown.
 */
function moduleFromFile({ modulePath, sha256 }: ModuleRef): string {
  return (
    `if (-not [System.IO.File]::Exists('${modulePath}')) { ${MISSING}'); ${EXIT_MISSING} }; ` +
    `$bytes = [System.IO.File]::ReadAllBytes('${modulePath}'); ` +
    HASH_OF_BYTES +
    `if ($hash -ne '${sha256}') { ${MISSING} ${MODULE_HASH_MISMATCH}: ${modulePath} has SHA-256 ' + $hash); ${EXIT_MISSING} }; `
  );
}

/**
 * First contact: the module's bytes read from the first line of stdin (base64) and checked, the module loaded
 * from them, the working area checked and protected by it (`WORK_AREA_CHECK`), then the bytes written to the
 * hash-named path through `.part`.
 */
function moduleFromStdin({ modulePath, sha256 }: ModuleRef): string {
  return (
    '$line = [Console]::In.ReadLine(); ' +
    "if ($null -eq $line) { throw 'stdin closed before the module arrived' }; " +
    '$bytes = [Convert]::FromBase64String($line.Trim()); ' +
    HASH_OF_BYTES +
    `if ($hash -ne '${sha256}') { throw "${MODULE_HASH_MISMATCH}: the module sent has SHA-256 $hash" }; ` +
    NEW_MODULE +
    WORK_AREA_CHECK +
    `[System.IO.File]::WriteAllBytes('${modulePath}.part', $bytes); ` +
    `Move-Item -Force -LiteralPath '${modulePath}.part' -Destination '${modulePath}'; `
  );
}

/**
 * The session script. The module runs from the same bytes that were hash-checked (a dynamic module), so
 * the file can be neither tampered with before nor swapped after the check. Each request is one line of
 * JSON on stdin; each answer is one line `wmco-result <json>` on stdout, flushed at once. Requests are
 * read only between requests, so nothing a request runs is handed the next request's line.
 */
export function hostSessionScript(module: ModuleRef, install: boolean): string {
  const ref = checkedModuleRef(module);
  return (
    "$ErrorActionPreference = 'Stop'; $ProgressPreference = 'SilentlyContinue'; " +
    // UTF-8 both ways: Windows PowerShell 5.1 otherwise uses the OEM code page for stdin and stdout.
    '$utf8 = New-Object System.Text.UTF8Encoding $false; ' +
    '[Console]::InputEncoding = [Console]::OutputEncoding = $utf8; ' +
    (install ? moduleFromStdin(ref) : moduleFromFile(ref) + NEW_MODULE) +
    `[Console]::Out.WriteLine('${SESSION_READY_MARKER}'); [Console]::Out.Flush(); ` +
    'while ($null -ne ($request = [Console]::In.ReadLine())) { ' +
    'if ($request.Trim().Length -eq 0) { continue }; ' +
    '$json = @(Invoke-WmcoHost -RequestJson $request)[-1]; ' +
    `[Console]::Out.WriteLine('${SESSION_RESULT_PREFIX}' + $json); [Console]::Out.Flush() }`
  );
}

/** What a first-contact session reads first on stdin: the module as one base64 line. */
export function sessionModuleLine(moduleBytes: Buffer): string {
  return `${moduleBytes.toString('base64')}\n`;
}

/** The module and mode of a script of exactly `hostSessionScript`'s form, or undefined. */
export function parseHostSession(script: string): (ModuleRef & { install: boolean }) | undefined {
  const install = script.includes('[Console]::In.ReadLine(); if ($null -eq $line)');
  const path = install
    ? /WriteAllBytes\('([^']*)\.part', \$bytes\)/.exec(script)?.[1]
    : /ReadAllBytes\('([^']*)'\); /.exec(script)?.[1];
  const sha256 = /if \(\$hash -ne '([0-9a-f]{64})'\)/.exec(script)?.[1];
  if (path === undefined || sha256 === undefined || !isModulePath(path)) return undefined;
  try {
    return hostSessionScript({ modulePath: path, sha256 }, install) === script
      ? { modulePath: path, sha256, install }
      : undefined;
  } catch {
    return undefined;
  }
}
