import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** `packages/core/assets/WmcoCapture.ps1`: the read-only capture `wmco hostcheck` runs. */
export const HOST_CAPTURE_FILE = fileURLToPath(new URL('../../../assets/WmcoCapture.ps1', import.meta.url));

/** The capture script as shipped, with its SHA-256 (the invocation checks it on the host). */
export interface HostCaptureScript {
  readonly text: string;
  readonly bytes: Buffer;
  readonly sha256: string;
}

let cached: Promise<HostCaptureScript> | undefined;

/** Reads the capture script once per process. */
export function loadHostCaptureScript(): Promise<HostCaptureScript> {
  cached ??= readFile(HOST_CAPTURE_FILE).then((bytes) => ({
    text: bytes.toString('utf8'),
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  }));
  return cached;
}

/** What the invocation throws (on stderr) when the script on stdin is not the one this build ships. */
export const CAPTURE_HASH_MISMATCH = 'wmco capture script hash mismatch';
/** Prefix of each capture line on stdout: `wmco-capture <name> <json>`. */
export const CAPTURE_LINE_PREFIX = 'wmco-capture ';
/** The last line: `wmco-capture-done <count>`. */
export const CAPTURE_DONE_PREFIX = 'wmco-capture-done ';

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The encoded command of a capture: the script arrives on stdin as one base64 line (so neither its length
 * nor its characters meet a command line), is hash-checked against `sha256`, and runs from those bytes.
 */
export function hostCaptureInvocationScript(sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error(`capture script hash '${sha256}' is not a SHA-256`);
  return (
    "$ErrorActionPreference = 'Stop'; $ProgressPreference = 'SilentlyContinue'; " +
    '$utf8 = New-Object System.Text.UTF8Encoding $false; ' +
    'try { [Console]::OutputEncoding = $utf8 } catch { }; ' +
    '$bytes = [Convert]::FromBase64String([Console]::In.ReadToEnd().Trim()); ' +
    "$hash = -join ([System.Security.Cryptography.SHA256]::Create().ComputeHash($bytes) | ForEach-Object { $_.ToString('x2') }); " +
    `if ($hash -ne '${sha256}') { throw "${CAPTURE_HASH_MISMATCH}: the script sent has SHA-256 $hash" }; ` +
    '& ([scriptblock]::Create($utf8.GetString($bytes).TrimStart([char]0xFEFF)))'
  );
}

/** The hash named by a script of exactly `hostCaptureInvocationScript`'s form, or undefined. */
export function parseHostCaptureInvocation(script: string): string | undefined {
  const sha256 = /if \(\$hash -ne '([0-9a-f]{64})'\)/.exec(script)?.[1];
  if (sha256 === undefined) return undefined;
  return hostCaptureInvocationScript(sha256) === script ? sha256 : undefined;
}

const captureItemSchema = z.object({
  type: z.string(),
  value: z.record(z.string(), z.unknown()),
  types: z.record(z.string(), z.string().nullable()),
});
/** One object a cmdlet returned: its PowerShell type name, its properties, and each property's .NET type. */
export type CaptureItem = z.infer<typeof captureItemSchema>;

export const captureRecordSchema = z.object({
  name: z.string().regex(/^[a-z0-9-]{1,64}$/),
  command: z.string(),
  // 5.1's ConvertTo-Json writes an empty @() as [] but a one-element @() inside a hashtable as the element.
  items: z.union([
    z.array(captureItemSchema),
    captureItemSchema.transform((i) => [i]),
    // ... and an array that went through a PSObject as {"value": [...], "Count": n}.
    z.object({ value: z.array(captureItemSchema), Count: z.number() }).transform((w) => w.value),
  ]),
  error: z.string().nullable(),
});
/** What one source (a cmdlet, CIM class, registry key or .NET type) returned on the host. */
export type CaptureRecord = z.infer<typeof captureRecordSchema>;

/** The capture lines of `stdout`, checked; `complete` when the script reached its last line. */
export function parseCaptureOutput(stdout: string): { records: CaptureRecord[]; complete: boolean } {
  const records: CaptureRecord[] = [];
  let complete = false;
  for (const raw of stdout.split(/\r?\n/)) {
    if (raw.startsWith(CAPTURE_DONE_PREFIX)) complete = true;
    if (!raw.startsWith(CAPTURE_LINE_PREFIX)) continue;
    const rest = raw.slice(CAPTURE_LINE_PREFIX.length);
    const json = rest.slice(rest.indexOf(' ') + 1);
    records.push(captureRecordSchema.parse(JSON.parse(json)));
  }
  return { records, complete };
}
