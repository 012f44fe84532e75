import { HostPaths } from './host-paths.js';

/**
 * The one command line the operator ever runs on a host. `-EncodedCommand` takes base64 of UTF-16LE, so
 * it works the same whether OpenSSH's default shell is cmd.exe or PowerShell, and nothing needs quoting.
 */
export const POWERSHELL_PREFIX =
  'powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand ';

const MODULE_PATH = /^C:\\ProgramData\\wmco\\WmcoHost-[0-9a-f]{16}\.psm1$/;
const SHA256 = /^[0-9a-f]{64}$/;

/** The module a call runs: its hash-named path and its full SHA-256, checked on the host on every use. */
export interface ModuleRef {
  readonly modulePath: string;
  readonly sha256: string;
}

/**
 * A module reference the host may be told to run: a hash-named path under the operator's folder and the
 * full SHA-256 that names it. Every invocation script checks it before putting it on a command line.
 */
export function checkedModuleRef(module: ModuleRef): ModuleRef {
  const { modulePath, sha256 } = module;
  if (!MODULE_PATH.test(modulePath)) {
    throw new Error(`module path '${modulePath}' is not under ${HostPaths.root}`);
  }
  if (!SHA256.test(sha256) || !modulePath.includes(`-${sha256.slice(0, 16)}.`)) {
    throw new Error(`module hash '${sha256}' does not name ${modulePath}`);
  }
  return module;
}

/** Whether `path` has the form of a module path (for parsing scripts back). */
export function isModulePath(path: string): boolean {
  return MODULE_PATH.test(path);
}

/** What the invocation throws (on stderr) when the module file is not the expected bytes. */
export const MODULE_HASH_MISMATCH = 'wmco host module hash mismatch';

/**
 * The script behind the encoded command. It reads the module's bytes once, checks their SHA-256 against the
 * hash this operator ships, and runs the module from those same bytes (a dynamic module), so the file can
 * be neither tampered with before nor swapped after the check. The request arrives on stdin (never on the
 * command line) and the module writes one JSON line to stdout.
 */
export function hostInvocationScript(module: ModuleRef): string {
  const { modulePath, sha256 } = checkedModuleRef(module);
  return (
    "$ErrorActionPreference = 'Stop'; $ProgressPreference = 'SilentlyContinue'; " +
    // UTF-8 both ways: Windows PowerShell 5.1 otherwise uses the OEM code page for stdin and stdout.
    '$utf8 = New-Object System.Text.UTF8Encoding $false; ' +
    '[Console]::InputEncoding = [Console]::OutputEncoding = $utf8; ' +
    `$bytes = [System.IO.File]::ReadAllBytes('${modulePath}'); ` +
    "$hash = -join ([System.Security.Cryptography.SHA256]::Create().ComputeHash($bytes) | ForEach-Object { $_.ToString('x2') }); " +
    `if ($hash -ne '${sha256}') { throw "${MODULE_HASH_MISMATCH}: ${modulePath} has SHA-256 $hash" }; ` +
    '$null = New-Module -Name WmcoHost -ScriptBlock ([scriptblock]::Create($utf8.GetString($bytes).TrimStart([char]0xFEFF))); ' +
    'Invoke-WmcoHost -RequestJson ([Console]::In.ReadToEnd())'
  );
}

/** `powershell.exe ... -EncodedCommand <base64 UTF-16LE of script>`. */
export function encodePowerShellCommand(script: string): string {
  return POWERSHELL_PREFIX + Buffer.from(script, 'utf16le').toString('base64');
}

/** The script inside a command line of exactly the adapter's form, or undefined for anything else. */
export function decodePowerShellCommand(commandLine: string): string | undefined {
  if (!commandLine.startsWith(POWERSHELL_PREFIX)) return undefined;
  const b64 = commandLine.slice(POWERSHELL_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length % 2 !== 0) return undefined;
  return bytes.toString('utf16le');
}

/** The module named by a script of exactly `hostInvocationScript`'s form, or undefined. */
export function parseHostInvocation(script: string): ModuleRef | undefined {
  const path = /ReadAllBytes\('([^']*)'\); /.exec(script)?.[1];
  const sha256 = /if \(\$hash -ne '([0-9a-f]{64})'\)/.exec(script)?.[1];
  if (path === undefined || sha256 === undefined || !MODULE_PATH.test(path)) return undefined;
  try {
    return hostInvocationScript({ modulePath: path, sha256 }) === script
      ? { modulePath: path, sha256 }
      : undefined;
  } catch {
    return undefined;
  }
}
