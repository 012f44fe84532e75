import type { PlanStep } from '../host/protocol/index.js';
import type { ObservedPlan } from '../converge/converge-round.js';

type PlaceFile = Extract<PlanStep, { kind: 'placeFile' }>;

/** A Windows path as steps may write it, for comparison: lower case, backslashes. */
const normal = (text: string): string => text.toLowerCase().replaceAll('/', '\\');

/**
 * The payload files (by SHA-256, among `payload`: the caller passes the core's own) a bootstrap apply can do without: placed by the node round's apply, so
 * they upload while the bootstrap services start and the kubelet waits for its Node. A file stays in the
 * bootstrap apply when any other step of it or a service of its spec names the file's path (a command line:
 * the binary, its `--config`; a script; a certificate bundle) or a service reads it at start
 * (`serviceFiles`). Generated files always stay (they are small, and containerd reads its registry
 * folders without naming each file). Pods are what need the rest (the runhcs shim, CNI plugins), and no
 * pod lands before the node round has made the node Ready.
 */
export function deferrableFiles(observed: ObservedPlan, payload: ReadonlySet<string>): Set<string> {
  const others = observed.plan.steps.filter((p) => p.kind !== 'placeFile');
  const mentioned = namedIn([
    JSON.stringify(others),
    // A service the plan only restarts (its binary replaced, its settings unchanged) has no step with its
    // command line: the spec's services name their files all the same.
    ...observed.spec.services.map((svc) => svc.command),
    ...Object.values(observed.spec.serviceFiles ?? {}).flat(),
    observed.spec.rootCertificates?.bundle ?? '',
  ]);
  const placed = observed.plan.steps.filter(
    (p): p is PlaceFile => p.kind === 'placeFile' && payload.has(p.sha256),
  );
  // A file placed at two paths stays when either is named.
  const kept = new Set(placed.filter((p) => mentioned(p.path)).map((p) => p.sha256));
  return new Set(placed.map((p) => p.sha256).filter((sha) => !kept.has(sha)));
}

/**
 * Of `files` (by SHA-256), those `observed`'s plan places at a path one of `texts` names (service command
 * lines): what a later round needs first.
 */
export function filesNamedBy(
  observed: ObservedPlan,
  files: ReadonlySet<string>,
  texts: readonly string[],
): Set<string> {
  const mentioned = namedIn(texts);
  return new Set(
    observed.plan.steps.flatMap((p) =>
      p.kind === 'placeFile' && files.has(p.sha256) && mentioned(p.path) ? [p.sha256] : [],
    ),
  );
}

/** Whether a path is named in `texts` (as written, or as JSON writes it). */
function namedIn(texts: readonly string[]): (path: string) => boolean {
  const named = normal(texts.join('\n'));
  return (path) => {
    const p = normal(path);
    return named.includes(p) || named.includes(JSON.stringify(p).slice(1, -1));
  };
}
