import { createHash } from 'node:crypto';
import { MODULE_HASH_MISMATCH, SESSION_MODULE_MISSING_MARKER, loadHostModule } from '@wmco/core/internal';
import type { ExecReply, HostShellContext } from './host-shell.js';
import { cliXmlError } from './powershell-clixml.js';

/** An uncaught `throw` of the -EncodedCommand script: exit 1, the error record on stderr as CLIXML. */
export function scriptThrew(message: string): { stderr: string; code: number } {
  return {
    stderr: cliXmlError({
      message,
      category: `OperationStopped: (${message.slice(0, 20)}...:String) [], RuntimeException`,
      errorId: message,
    }),
    code: 1,
  };
}

const moduleNotFound = (path: string): { stderr: string; code: number } => ({
  stderr: cliXmlError({
    message: `Exception calling "ReadAllBytes" with "1" argument(s): "Could not find file '${path}'."`,
    category: 'NotSpecified: (:) [], MethodInvocationException',
    errorId: 'FileNotFoundException',
  }),
  code: 1,
});

/** What the module file holds: undefined when it is this build's module, else why not. */
async function moduleProblem(
  ctx: HostShellContext,
  modulePath: string,
  sha256: string,
): Promise<'missing' | { actual: string } | 'foreign' | undefined> {
  const onDisk = ctx.model.files.read(modulePath);
  if (onDisk === undefined) return 'missing';
  const actual = createHash('sha256').update(onDisk).digest('hex');
  if (actual !== sha256) return { actual };
  // The simulator runs only the module this build ships; an older or newer version is not modelled.
  return sha256 === (await loadHostModule()).sha256 ? undefined : 'foreign';
}

const FOREIGN = 'the simulated host runs only the host module of this build';

/** The module on disk is not the one asked for: the invocation scripts' message. */
function hashMismatch(modulePath: string, actual: string): string {
  return `${MODULE_HASH_MISMATCH}: ${modulePath} has SHA-256 ${actual}`;
}

/** The one-shot invocation's own check (hostInvocationScript): a problem is a thrown error. */
export async function moduleCheck(
  ctx: HostShellContext,
  modulePath: string,
  sha256: string,
): Promise<ExecReply> {
  const problem = await moduleProblem(ctx, modulePath, sha256);
  if (problem === undefined) return undefined;
  if (problem === 'missing') return moduleNotFound(modulePath);
  if (problem === 'foreign') return scriptThrew(FOREIGN);
  return scriptThrew(hashMismatch(modulePath, problem.actual));
}

/**
 * hostSessionScript's check: a missing module, or one with another hash, is said on stdout with
 * SESSION_MODULE_MISSING_MARKER and exit 3.
 */
export async function sessionModuleCheck(
  ctx: HostShellContext,
  modulePath: string,
  sha256: string,
): Promise<ExecReply> {
  const problem = await moduleProblem(ctx, modulePath, sha256);
  if (problem === undefined) return undefined;
  if (problem === 'missing') return { stdout: `${SESSION_MODULE_MISSING_MARKER}\r\n`, code: 3 };
  if (problem === 'foreign') return scriptThrew(FOREIGN);
  const why = hashMismatch(modulePath, problem.actual);
  return { stdout: `${SESSION_MODULE_MISSING_MARKER} ${why}\r\n`, code: 3 };
}

/** The module line of a first contact decoded, hash-checked and written to its path; an error reply otherwise. */
export function installModuleLine(
  ctx: HostShellContext,
  plan: { readonly modulePath: string; readonly sha256: string },
  line: string,
  workArea: () => { stdout: string; code: number } | undefined,
): { stdout?: string; stderr?: string; code: number } | undefined {
  const bytes = Buffer.from(line.trim(), 'base64');
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== plan.sha256)
    return scriptThrew(`${MODULE_HASH_MISMATCH}: the module sent has SHA-256 ${actual}`);
  // The module, loaded from the checked bytes, checks and protects the working area before it is written.
  const refused = workArea();
  if (refused) return refused;
  ctx.model.files.write(plan.modulePath, bytes);
  return undefined;
}
