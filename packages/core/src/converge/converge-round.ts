import { observeQueryFor } from './converge.js';
import type { HostSpec } from '../desired/host-spec.js';
import { plan, type Plan } from './plan.js';
import type { HostState } from '../host/protocol/index.js';
import type { ApplyOptions, ChangeOutcome, UploadFile, WindowsHost } from '../host/windows-host.js';
import { checkNodeValue } from '../desired/node-values.js';
import type { HostScript } from '../desired/service-scripts.js';

/** A pre-script that failed on the host. */
export class HostScriptError extends Error {
  constructor(name: string, script: string, error: string) {
    super(`pre-script ${name} (${script.split(' ')[0] ?? ''}) failed on the host: ${error}`);
    this.name = 'HostScriptError';
  }
}

/** What one observe saw, and the plan that would take the host to its spec. */
export interface ObservedPlan {
  readonly values: Record<string, string>;
  readonly state: HostState;
  readonly spec: HostSpec;
  readonly plan: Plan;
}

export interface RoundResult extends ObservedPlan {
  readonly outcome: ChangeOutcome;
  readonly bytesSent: number;
}

/** The value each variable script produced (trimmed); a script that failed or is missing throws. */
function scriptValues(
  scripts: readonly HostScript[],
  evaluated: HostState['evaluated'],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of scripts) {
    const r = evaluated[s.name];
    if (!r) throw new HostScriptError(s.name, s.script, 'the host returned no result');
    if (!r.ok) throw new HostScriptError(s.name, s.script, r.error);
    if (!s.variable) continue;
    // Host output fills a service command line: it must have its variable's type (NODE_IP an IPv4, ...).
    const value = r.output.trim();
    checkNodeValue(s.variable, value);
    out[s.variable] = value;
  }
  return out;
}

export interface ObserveInput {
  readonly specFor: (values: Readonly<Record<string, string>>) => HostSpec;
  /** Run on the host, in order, by the observe itself (one PowerShell start). */
  readonly scripts: readonly HostScript[];
}

/**
 * One observe with pre-scripts evaluated first in the same PowerShell start; the spec built from their
 * values; the plan. Changes nothing on the host beyond what the scripts themselves do: pass only
 * variable scripts (`variableScripts`) for a read-only look, as `wmco plan` and drift checks do.
 */
export async function observeAndPlan(host: WindowsHost, input: ObserveInput): Promise<ObservedPlan> {
  const { specFor, scripts } = input;
  const provisional = specFor(
    Object.fromEntries(scripts.flatMap((s) => (s.variable ? [[s.variable, '']] : []))),
  );
  const query = {
    ...observeQueryFor(provisional),
    evaluate: scripts.map((s) => ({ name: s.name, script: s.script, ...(s.args ? { args: s.args } : {}) })),
  };
  const state = await host.observe(query);
  const values = scriptValues(scripts, state.evaluated);
  const spec = specFor(values);
  return { values, state, spec, plan: plan(state, spec) };
}

/**
 * One converge round with pre-scripts (ARCHITECTURE §5): observe, evaluating the scripts first in the same
 * PowerShell start; build the spec from their values; plan; upload what is not staged; apply; reboot when
 * the host asks for it. Two PowerShell starts when there is something to do, one when there is not.
 */
export interface RoundInput extends ObserveInput {
  readonly content: (sha256: string) => UploadFile['source'];
  /** Sees the script values and the observed host after observe, before anything changes; may refuse (throw). */
  readonly beforeApply?:
    ((values: Record<string, string>, state: HostState) => void | Promise<void>) | undefined;
}

export async function convergeRound(host: WindowsHost, input: RoundInput): Promise<RoundResult> {
  const observed = await observeAndPlan(host, input);
  await input.beforeApply?.(observed.values, observed.state);
  const applied = await applyObserved(host, observed, input.content);
  if (applied.outcome.rebootRequired) await host.reboot();
  return { ...observed, ...applied };
}

/** The files (by SHA-256) `observed.plan` places that the host had not staged when it was observed. */
export function stagingNeeded(observed: ObservedPlan): string[] {
  const staged = new Set(observed.state.staged);
  const placed = observed.plan.steps.flatMap((s) => (s.kind === 'placeFile' ? [s.sha256] : []));
  return [...new Set(placed.filter((sha) => !staged.has(sha)))];
}

/**
 * Uploads the files `observed.plan` places that the host has not staged yet, then applies the plan
 * (skipped when empty). Never waits for a reboot: the caller decides what `outcome.rebootRequired` means
 * (with `options.rebootWhenRequired` the host restarts itself at the end of the apply).
 */
export async function applyObserved(
  host: WindowsHost,
  observed: ObservedPlan,
  content: (sha256: string) => UploadFile['source'],
  options: ApplyOptions = {},
): Promise<{ outcome: ChangeOutcome; bytesSent: number }> {
  const p = observed.plan;
  const needed = stagingNeeded(observed);
  const upload = await host.upload(needed.map((sha256) => ({ sha256, source: content(sha256) })));
  const outcome = p.steps.length > 0 ? await host.apply(p, options) : { done: [], rebootRequired: false };
  return { outcome, bytesSent: upload.bytesSent };
}
