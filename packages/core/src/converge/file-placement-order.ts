import type { PlanStep } from '../host/protocol/index.js';
import type { HostSpec } from '../desired/host-spec.js';
import { namedIn } from './named-paths.js';

type PlaceFile = Extract<PlanStep, { kind: 'placeFile' }>;
type Start = Extract<PlanStep, { kind: 'startService' | 'startServices' }>;

const lower = (s: string): string => s.toLowerCase();
const isStart = (s: PlanStep): s is Start => s.kind === 'startService' || s.kind === 'startServices';
const startedBy = (s: Start): readonly string[] => (s.kind === 'startService' ? [s.name] : s.names);

/** Steps that name a file without reading it: the file may arrive after them. */
const NAMES_ONLY = new Set<PlanStep['kind']>(['placeFile', 'createService', 'configureService']);

/**
 * `steps` (a plan whose services start level by level, each level after its pre-scripts) with each file
 * that only the services of a later level need placed right before that level (its pre-scripts, then its
 * start), instead of with every other file: the first levels start while the host still places the rest.
 * A host places files one after another, and a placed archive is expanded and hashed first (`tar.exe` and
 * `Get-FileHash` on Windows; about a second for the kubelet's binary), so containerd no longer waits for
 * the kubelet's files. A file stays with the others when a service of the first level needs it, when no
 * service started by the plan needs it, or when any other step names it (a pre-script, an environment
 * variable, a certificate bundle): only a service's start reads it then.
 */
export function withFilesBeforeTheirStart(steps: readonly PlanStep[], spec: HostSpec): PlanStep[] {
  const levels = steps.filter(isStart).map(startedBy);
  if (levels.length < 2) return [...steps];
  const readsBy = new Map(
    spec.services.map((svc) => [
      lower(svc.name),
      namedIn([svc.command, ...(spec.serviceFiles?.[svc.name] ?? [])]),
    ]),
  );
  const namedElsewhere = namedIn([
    JSON.stringify(steps.filter((s) => !NAMES_ONLY.has(s.kind) && !isStart(s))),
  ]);
  /** The first level whose services read the file, or 0 (stays) when it must stay with the others. */
  const levelOf = (p: PlaceFile): number => {
    if (namedElsewhere(p.path)) return 0;
    const first = levels.findIndex((names) => names.some((n) => readsBy.get(lower(n))?.(p.path)));
    return first < 0 ? 0 : first;
  };
  const moved = new Map<number, PlaceFile[]>();
  for (const s of steps) {
    const level = s.kind === 'placeFile' ? levelOf(s) : 0;
    if (level > 0) moved.set(level, [...(moved.get(level) ?? []), s as PlaceFile]);
  }
  return moved.size === 0 ? [...steps] : placedBeforeLevels(steps, moved);
}

/** `steps` without the `moved` files, each level's moved files inserted where its block begins. */
function placedBeforeLevels(steps: readonly PlanStep[], moved: ReadonlyMap<number, PlaceFile[]>): PlanStep[] {
  const late = new Set<PlanStep>([...moved.values()].flat());
  const out: PlanStep[] = [];
  let level = 0;
  for (const [i, s] of steps.entries()) {
    if (late.has(s)) continue;
    // The first step of a level's block: its first pre-script, or its start when it has none.
    if (firstOfBlock(steps, i)) out.push(...(moved.get(level) ?? []));
    out.push(s);
    if (isStart(s)) level++;
  }
  return out;
}

/** Whether step `i` opens a level's block: a start or a pre-script not preceded by a pre-script. */
function firstOfBlock(steps: readonly PlanStep[], i: number): boolean {
  const s = steps[i];
  if (s === undefined || (!isStart(s) && s.kind !== 'runScript')) return false;
  if (s.kind === 'runScript') return steps[i - 1]?.kind !== 'runScript' && followedByStart(steps, i);
  return steps[i - 1]?.kind !== 'runScript';
}

/** Whether the run of pre-scripts at `i` ends in a start (runScript steps come only before starts). */
function followedByStart(steps: readonly PlanStep[], i: number): boolean {
  let j = i;
  while (steps[j]?.kind === 'runScript') j++;
  const next = steps[j];
  return next !== undefined && isStart(next);
}
