import {
  decodePowerShellCommand,
  hostRequestSchema,
  parseHostInstallInvocation,
  parseHostInvocation,
  parseHostSession,
  parseHostCaptureInvocation,
  type HostResult,
  HOST_PROTOCOL_VERSION,
} from '@wmco/core/internal';

/** What the shell prints for a command it cannot run, per default shell (exit code 1). */
export function notRecognized(shell: 'cmd' | 'powershell', command: string): string {
  const word = command.trim().split(/\s+/)[0] ?? '';
  if (shell === 'cmd') {
    return `'${word}' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n`;
  }
  return (
    `${word} : The term '${word}' is not recognized as the name of a cmdlet, function, script file, or operable ` +
    `program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.\r\n`
  );
}

/** How the host should answer one exec. */
export type ExecPlan =
  | { readonly kind: 'module'; readonly modulePath: string; readonly sha256: string }
  /** First contact: the module from stdin is checked, the working area checked and protected, the module written and run (ADR 0022). */
  | { readonly kind: 'install'; readonly modulePath: string; readonly sha256: string }
  /** One powershell.exe answering requests line by line until stdin closes (ADR 0026). */
  | {
      readonly kind: 'session';
      readonly modulePath: string;
      readonly sha256: string;
      readonly install: boolean;
    }
  /** `wmco hostcheck`'s read-only capture: the script arrives on stdin (answered by capture-answer.ts). */
  | { readonly kind: 'capture'; readonly sha256: string }
  | { readonly kind: 'error'; readonly stderr: string; readonly code: number };

/**
 * Accepts exactly the adapter's invocation (powershell.exe ... -EncodedCommand of the host script);
 * anything else gets the error the default shell would print.
 */
export function classifyExec(command: string, shell: 'cmd' | 'powershell'): ExecPlan {
  const script = decodePowerShellCommand(command);
  if (script === undefined) return { kind: 'error', stderr: notRecognized(shell, command), code: 1 };
  const session = parseHostSession(script);
  if (session !== undefined) return { kind: 'session', ...session };
  const install = parseHostInstallInvocation(script);
  if (install !== undefined) return { kind: 'install', ...install };
  const capture = parseHostCaptureInvocation(script);
  if (capture !== undefined) return { kind: 'capture', sha256: capture };
  const invocation = parseHostInvocation(script);
  if (invocation === undefined) {
    // powershell.exe started, but the script is not one the simulator models.
    return {
      kind: 'error',
      stderr: `the simulated host runs only the wmco host module invocation\r\n`,
      code: 1,
    };
  }
  return { kind: 'module', modulePath: invocation.modulePath, sha256: invocation.sha256 };
}

/** Parses a request the way Invoke-WmcoHost does; an error result for anything invalid. */
export function parseRequest(json: string): ReturnType<typeof hostRequestSchema.parse> | HostResult {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    return {
      v: HOST_PROTOCOL_VERSION,
      op: 'unknown',
      ok: false,
      error: { message: `request is not JSON: ${String(err)}` },
    };
  }
  const parsed = hostRequestSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const op = typeof raw === 'object' && raw !== null && 'op' in raw ? String(raw.op) : 'unknown';
  return { v: HOST_PROTOCOL_VERSION, op, ok: false, error: { message: parsed.error.message } };
}
