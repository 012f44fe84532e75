import { setTimeout as sleep } from 'node:timers/promises';
import {
  HOST_PROTOCOL_VERSION,
  SESSION_FOLDER_REFUSED_MARKER,
  type Evaluated,
  type HostRequest,
  type HostResult,
} from '@wmco/core/internal';
import { type DeconfigureRequest, type HostAction, type ObserveRequest } from '@wmco/core';
import { answerCapture } from './capture-answer.js';
import { deconfigure } from './deconfigure.js';
import { cliXmlError } from './powershell-clixml.js';
import { installModuleLine, moduleCheck } from './module-check.js';
import { protectOperatorRoots, workAreaRefusal } from './protected-folders.js';
import type { EvaluatorRegistry } from './evaluate/evaluator-registry.js';
import { classifyExec, parseRequest } from './exec-handler.js';
import type { HostCosts, HostFaults } from './host-costs.js';
import { apply, observe } from './host-operations.js';
import type { WindowsModel } from './windows-model.js';

/** What one exec prints and its exit code; undefined = never answers (hung, or the host went down). */
export type ExecReply = { stdout?: string; stderr?: string; code: number } | undefined;

/** The host's side of an exec: the default shell, powershell.exe, and the host module's operations. */
export interface HostShellContext {
  readonly model: WindowsModel;
  readonly costs: HostCosts;
  readonly faults: () => HostFaults;
  readonly stats: { powershellStarts: number };
  readonly unsupported: (command: string) => void;
  readonly reboot: () => Promise<void>;
  /** Every open SSH connection of the host dies without a goodbye (the link, not the host, fails). */
  readonly dropConnections: () => void;
  /** Answers `observe`'s `evaluate` scripts and `apply`'s `runScript` steps. */
  readonly evaluators: EvaluatorRegistry;
  /** Hears every host module operation the host ran, with the scripts it evaluated. */
  readonly record: (invocation: HostInvocation) => void;
}

/** One host module operation as the host ran it; `scripts`: an observe's `evaluate` entries, an apply's `runScript` steps. */
export interface HostInvocation {
  readonly op: string;
  /** The destinations of an `apply`'s `placeFile` steps, in order. */
  readonly placed?: readonly string[];
  readonly scripts: readonly {
    readonly name: string;
    readonly script: string;
    readonly args?: Readonly<Record<string, string>> | undefined;
  }[];
}

/**
 * hostInstallInvocationScript on the model: the module line of stdin decoded and hash-checked, the working
 * area checked and protected (a refusal said on stdout, exit 4), the module written to its path; the rest
 * of stdin is the request.
 */
function installModule(
  ctx: HostShellContext,
  plan: { readonly modulePath: string; readonly sha256: string },
  stdin: string,
): { request: string } | { stdout?: string; stderr?: string; code: number } {
  const cut = stdin.indexOf('\n');
  if (cut < 0) {
    return {
      stderr: cliXmlError({
        message: 'Exception calling "Substring" with "2" argument(s): "Length cannot be less than zero."',
        category: 'NotSpecified: (:) [], MethodInvocationException',
        errorId: 'ArgumentOutOfRangeException',
      }),
      code: 1,
    };
  }
  const refused = installModuleLine(ctx, plan, stdin.slice(0, cut), () => workAreaRefusedReply(ctx.model));
  return refused ?? { request: stdin.slice(cut + 1) };
}

/** Initialize-WmcoWorkArea's refusal as the first-contact scripts print it (stdout, exit 4); else undefined. */
export function workAreaRefusedReply(m: WindowsModel): { stdout: string; code: number } | undefined {
  const refusal = workAreaRefusal(m);
  return refusal === undefined
    ? undefined
    : { stdout: `${SESSION_FOLDER_REFUSED_MARKER} ${refusal}\r\n`, code: 4 };
}

/** Runs one command line with its stdin, as the simulated Windows host would. */
export async function runCommand(ctx: HostShellContext, command: string, stdin: string): Promise<ExecReply> {
  const faults = ctx.faults();
  if (faults.hangNextCommand) {
    delete faults.hangNextCommand;
    return undefined;
  }
  const plan = classifyExec(command, ctx.model.defaultShell);
  if (plan.kind === 'error') {
    ctx.unsupported(command);
    return { stderr: plan.stderr, code: plan.code };
  }
  ctx.stats.powershellStarts++;
  if (ctx.costs.powershellStartMs > 0) await sleep(ctx.costs.powershellStartMs);
  if (plan.kind === 'capture') return answerCapture(ctx, plan.sha256, stdin);
  let request = stdin;
  if (plan.kind === 'install') {
    const installed = installModule(ctx, plan, stdin);
    if ('code' in installed) return installed;
    request = installed.request;
  }
  // Read once, hashed, and run from the same bytes: nothing can swap the file in between.
  const refused = await moduleCheck(ctx, plan.modulePath, plan.sha256);
  if (refused) return refused;
  const result = await runModule(ctx, request);
  return result === undefined ? undefined : { stdout: `${JSON.stringify(result)}\r\n`, code: 0 };
}

/** The scripts an operation runs: `observe`'s `evaluate` entries, `apply`'s `runScript` steps. */
function invocationScripts(request: HostRequest): HostInvocation['scripts'] {
  if (request.op === 'observe') return [...(request.evaluate ?? [])];
  if (request.op !== 'apply') return [];
  return request.steps.flatMap((s) =>
    s.kind === 'runScript' ? [{ name: s.name, script: s.script, args: s.args }] : [],
  );
}

/** Invoke-WmcoHost on the model. */
export async function runModule(ctx: HostShellContext, stdin: string): Promise<HostResult | undefined> {
  const request = parseRequest(stdin);
  if ('ok' in request) return request;
  ctx.record({
    op: request.op,
    scripts: invocationScripts(request),
    ...(request.op === 'apply'
      ? { placed: request.steps.flatMap((s) => (s.kind === 'placeFile' ? [s.path] : [])) }
      : {}),
  });
  switch (request.op) {
    case 'observe':
      return {
        v: request.v,
        op: 'observe',
        ok: true,
        state: observe(ctx.model, request, evaluate(ctx, request)),
      };
    case 'apply':
      return applyWithFaults(ctx, request.steps, request.rebootWhenRequired === true);
    case 'deconfigure':
      return deconfigureAndReboot(ctx, request);
    case 'reboot': {
      const lastBootTime = ctx.model.readBootTime();
      const bootId = ctx.model.bootId();
      // Like `shutdown /r /t 3`: answer first, go down a moment later.
      setTimeout(() => void ctx.reboot(), ctx.costs.rebootGraceMs ?? 20);
      return { v: request.v, op: 'reboot', ok: true, lastBootTime, bootId };
    }
  }
}

/** Invoke-WmcoDeconfigure; with `rebootWhenRequired`, the call that finishes schedules the restart it needs. */
async function deconfigureAndReboot(ctx: HostShellContext, request: DeconfigureRequest): Promise<HostResult> {
  const result = await deconfigure(ctx.model, request);
  const finished = result.ok && result.reconnect !== true;
  if (!(finished && result.rebootRequired && request.rebootWhenRequired === true)) return result;
  // Invoke-WmcoReboot at the end of the revert: answer first, go down a moment later.
  setTimeout(() => void ctx.reboot(), ctx.costs.rebootGraceMs ?? 20);
  return { ...result, rebootScheduled: true };
}

/** Invoke-WmcoEvaluate: each script in order, before the state is collected; a failure is a result. */
function evaluate(ctx: HostShellContext, request: ObserveRequest): Record<string, Evaluated> {
  const results: Record<string, Evaluated> = {};
  for (const { name, script, args } of request.evaluate ?? []) {
    results[name] = ctx.evaluators.evaluate(
      ctx.model,
      script,
      (s) => ctx.unsupported(`evaluate: ${s}`),
      args ?? {},
    );
  }
  return results;
}

/** A `runScript` step: Invoke-WmcoScript on the model. */
function runScript(
  ctx: HostShellContext,
  step: { readonly script: string; readonly args?: Readonly<Record<string, string>> | undefined },
): Evaluated {
  return ctx.evaluators.evaluate(
    ctx.model,
    step.script,
    (s) => ctx.unsupported(`apply: ${s}`),
    step.args ?? {},
  );
}

/** An apply that may lose power before a given step: the host reboots and never answers. */
async function applyWithFaults(
  ctx: HostShellContext,
  steps: Parameters<typeof apply>[1],
  rebootWhenRequired: boolean,
): Promise<HostResult | undefined> {
  const faults = ctx.faults();
  // Initialize-WmcoDirectories: the operator's folders are protected before any step writes into them.
  let protectedNow: HostAction[];
  try {
    protectedNow = protectOperatorRoots(ctx.model);
  } catch (err) {
    const message = `protecting the operator's folders: ${err instanceof Error ? err.message : String(err)}`;
    return {
      v: HOST_PROTOCOL_VERSION,
      op: 'apply',
      ok: false,
      done: [],
      rebootRequired: false,
      error: { message },
    };
  }
  try {
    const result = await apply(ctx.model, steps, {
      beforeStep: (i) => {
        if (faults.dropDuringApplyAtStep === i) {
          delete faults.dropDuringApplyAtStep;
          ctx.dropConnections();
        }
        if (faults.rebootDuringApplyAtStep !== i) return Promise.resolve();
        delete faults.rebootDuringApplyAtStep;
        void ctx.reboot();
        return Promise.reject(new Error('power lost'));
      },
      runScript: (step) => runScript(ctx, step),
    });
    const done = [...protectedNow, ...result.done];
    if (!(result.ok && result.rebootRequired && rebootWhenRequired)) return { ...result, done };
    // Invoke-WmcoReboot at the end of the apply: answer first, go down a moment later.
    setTimeout(() => void ctx.reboot(), ctx.costs.rebootGraceMs ?? 20);
    return { ...result, done, rebootScheduled: true };
  } catch {
    return undefined;
  }
}
