import { HostPaths } from './host-paths.js';

/**
 * The one command line the operator ever runs on a host. `-EncodedCommand` takes base64 of UTF-16LE, so
 * it works the same whether OpenSSH's default shell is cmd.exe or PowerShell, and nothing needs quoting.
 */
export const POWERSHELL_PREFIX =
  'powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand ';

const MODULE_PATH = /^C:\\ProgramData\\wmco\\WmcoHost-[0-9a-f]{16}\.psm1$/;

/**
 * The script behind the encoded command: import the module by its hash-named path and hand it the request,
 * which arrives on stdin (never on the command line). The module writes one JSON line to stdout.
 */
export function hostInvocationScript(modulePath: string): string {
  if (!MODULE_PATH.test(modulePath)) {
    throw new Error(`module path '${modulePath}' is not under ${HostPaths.root}`);
  }
  return (
    "$ErrorActionPreference = 'Stop'; $ProgressPreference = 'SilentlyContinue'; " +
    // UTF-8 both ways: Windows PowerShell 5.1 otherwise uses the OEM code page for stdin and stdout.
    '[Console]::InputEncoding = [Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false; ' +
    `Import-Module -Force -DisableNameChecking '${modulePath}'; ` +
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

/** The module path named by a script of exactly `hostInvocationScript`'s form, or undefined. */
export function parseHostInvocation(script: string): { modulePath: string } | undefined {
  const m = /Import-Module -Force -DisableNameChecking '([^']*)'; /.exec(script);
  const modulePath = m?.[1];
  if (modulePath === undefined || !MODULE_PATH.test(modulePath)) return undefined;
  return hostInvocationScript(modulePath) === script ? { modulePath } : undefined;
}
