import type { EvaluateEntry, HostState } from '../host/protocol/index.js';
import type {
  ChangeOutcome,
  ObserveQuery,
  UploadFile,
  UploadReport,
  WindowsHost,
} from '../host/windows-host.js';
import type { HostSpec } from '../desired/host-spec.js';
import { plan, type Plan } from './plan.js';

/**
 * What observe must report on to plan this spec; `extraEnvVars` are managed names to remove if set;
 * `evaluate` are PowerShell command lines (pre-scripts) the host runs, in order, before it reports.
 */
export function observeQueryFor(
  spec: HostSpec,
  extraEnvVars: readonly string[] = [],
  evaluate: readonly EvaluateEntry[] = [],
): ObserveQuery {
  return {
    directories: [...spec.directories],
    files: spec.files.map((f) => f.path),
    services: spec.services.map((s) => s.name),
    envVars: [...new Set([...Object.keys(spec.envVars), ...extraEnvVars])],
    firewallRules: spec.firewallRules.map((r) => r.name),
    ...(spec.prunedDirectories?.length ? { listDirectories: [...spec.prunedDirectories] } : {}),
    ...(spec.rootCertificates ? { rootCertificates: [...spec.rootCertificates.thumbprints] } : {}),
    ...(spec.keptClientCertificates !== undefined ? { clientCertificates: true } : {}),
    // Left out when empty, so a query without scripts is the same request as before the field existed.
    ...(evaluate.length > 0
      ? {
          evaluate: evaluate.map((e) => ({
            name: e.name,
            script: e.script,
            ...(e.args ? { args: e.args } : {}),
          })),
        }
      : {}),
  };
}

export interface ConvergeOptions {
  /** Scripts run by the observe that starts the converge; results in `ConvergeResult.before.evaluated`. */
  readonly evaluate?: readonly EvaluateEntry[];
}

export interface ConvergeResult {
  /** The observed state, with `evaluated` holding the results of `ConvergeOptions.evaluate`. */
  readonly before: HostState;
  readonly plan: Plan;
  readonly upload: UploadReport;
  readonly outcome: ChangeOutcome;
}

/**
 * One converge: observe (one PowerShell start), upload the files the plan places that are not staged yet
 * (SFTP only), apply (one PowerShell start, skipped when the plan is empty). `content` supplies a
 * payload file's bytes by SHA-256.
 */
export async function converge(
  host: WindowsHost,
  spec: HostSpec,
  content: (sha256: string) => UploadFile['source'],
  options: ConvergeOptions = {},
): Promise<ConvergeResult> {
  const before = await host.observe(observeQueryFor(spec, [], options.evaluate));
  const p = plan(before, spec);
  const staged = new Set(before.staged);
  const needed = [
    ...new Set(p.steps.flatMap((s) => (s.kind === 'placeFile' && !staged.has(s.sha256) ? [s.sha256] : []))),
  ];
  const upload = await host.upload(needed.map((sha256) => ({ sha256, source: content(sha256) })));
  const outcome = await host.apply(p);
  return { before, plan: p, upload, outcome };
}
