import type { ExecutionContext } from 'ava';
import type { ZodType } from 'zod';
import type { PayloadFile } from '../../provider/types/payload-file.js';
import { powershellSyntaxErrors } from '../powershell-syntax.js';

// Drive letter, then backslash-separated names without the characters Windows forbids in paths.
const ABSOLUTE_WINDOWS_PATH = /^[A-Za-z]:\\(?:[^\\/:*?"<>|\r\n]+(?:\\[^\\/:*?"<>|\r\n]+)*\\?)?$/;
const FILE_NAME = /^[^\\/:*?"<>|\r\n]+$/;

/** `C:\k`, `C:\Temp\x.ps1`; not relative, not POSIX, no `.` or `..` segments. */
export function isAbsoluteWindowsPath(path: string): boolean {
  if (!ABSOLUTE_WINDOWS_PATH.test(path)) return false;
  return !path.split('\\').some((segment) => segment === '.' || segment === '..');
}

export function isPlainFileName(name: string): boolean {
  return FILE_NAME.test(name) && name !== '.' && name !== '..';
}

/** Fails with the zod issues when `value` does not have the capability's shape. */
export function assertShape(t: ExecutionContext, schema: ZodType, value: unknown): void {
  const result = schema.safeParse(value);
  const problems = result.success
    ? []
    : result.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
  t.deepEqual(problems, [], `shape problems:\n${problems.join('\n')}`);
}

/** Fails with line-numbered messages when `script` does not parse as PowerShell. */
export function assertPowerShell(t: ExecutionContext, label: string, script: string): void {
  const errors = powershellSyntaxErrors(script);
  t.deepEqual(
    errors,
    [],
    `${label} does not parse as PowerShell:\n${errors.join('\n')}\n--- script ---\n${script}`,
  );
}

/** Payload files: plain names, absolute Windows destinations, no file listed twice. */
export function assertPayload(t: ExecutionContext, files: readonly PayloadFile[]): void {
  t.true(files.length > 0, 'a payload must list at least one file (register nothing rather than nothing)');
  for (const file of files) {
    t.true(isPlainFileName(file.name), `payload name '${file.name}' must be a file name, not a path`);
    t.true(
      isAbsoluteWindowsPath(file.directory),
      `payload '${file.name}' goes to '${file.directory}', which is not an absolute Windows path`,
    );
  }
  const targets = files.map((f) => `${f.directory}\\${f.name}`.toLowerCase());
  t.is(new Set(targets).size, targets.length, 'a payload file is listed twice');
}

/** A deep, plain copy: what a capability returned, reduced to data (functions and classes dropped). */
export function plain(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}
