import { observeQueryFor } from '../converge/converge.js';
import type { HostSpec } from '../converge/host-spec.js';
import { plan, type Plan } from '../converge/plan.js';
import type { HostState } from '../host/protocol/index.js';
import type { ChangeOutcome, UploadFile, WindowsHost } from '../host/windows-host.js';
import type { HostScript } from '../join/service-scripts.js';

/** A pre-script that failed on the host. */
export class HostScriptError extends Error {
  constructor(name: string, script: string, error: string) {
    super(`pre-script ${name} (${script.split(' ')[0] ?? ''}) failed on the host: ${error}`);
    this.name = 'HostScriptError';
  }
}

export interface RoundResult {
  readonly values: Record<string, string>;
  readonly state: HostState;
  readonly plan: Plan;
  readonly outcome: ChangeOutcome;
  readonly bytesSent: number;
}

type Evaluated = Readonly<Record<string, { ok: true; output: string } | { ok: false; error: string }>>;

function values(scripts: readonly HostScript[], evaluated: Evaluated): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of scripts) {
    const r = evaluated[s.name];
    if (!r) throw new HostScriptError(s.name, s.script, 'the host returned no result');
    if (!r.ok) throw new HostScriptError(s.name, s.script, r.error);
    if (s.variable) out[s.variable] = r.output.trim();
  }
  return out;
}

/**
 * One converge round with pre-scripts (ARCHITECTURE §5): observe, evaluating the scripts first in the same
 * PowerShell start; build the spec from their values; plan; upload what is not staged; apply; reboot when
 * the host asks for it. Two PowerShell starts when there is something to do, one when there is not.
 */
export interface RoundInput {
  readonly specFor: (values: Readonly<Record<string, string>>) => HostSpec;
  readonly scripts: readonly HostScript[];
  readonly content: (sha256: string) => UploadFile['source'];
  /** Sees the script values and the host name after observe, before anything changes. */
  readonly beforeApply?: ((values: Record<string, string>, hostname: string) => void) | undefined;
}

export async function convergeRound(host: WindowsHost, input: RoundInput): Promise<RoundResult> {
  const { specFor, scripts, content, beforeApply } = input;
  const provisional = specFor(
    Object.fromEntries(scripts.flatMap((s) => (s.variable ? [[s.variable, '']] : []))),
  );
  const query = {
    ...observeQueryFor(provisional),
    evaluate: scripts.map((s) => ({ name: s.name, script: s.script })),
  };
  const state = await host.observe(query);
  const found = values(scripts, (state as HostState & { evaluated?: Evaluated }).evaluated ?? {});
  beforeApply?.(found, state.hostname);
  const spec = specFor(found);
  const p = plan(state, spec);
  const staged = new Set(state.staged);
  const needed = [
    ...new Set(p.steps.flatMap((s) => (s.kind === 'placeFile' && !staged.has(s.sha256) ? [s.sha256] : []))),
  ];
  const upload = await host.upload(needed.map((sha256) => ({ sha256, source: content(sha256) })));
  const outcome = p.steps.length > 0 ? await host.apply(p) : { done: [], rebootRequired: false };
  if (outcome.rebootRequired) await host.reboot();
  return { values: found, state, plan: p, outcome, bytesSent: upload.bytesSent };
}
