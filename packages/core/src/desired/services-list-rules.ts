import { WmcoError } from '../provider/errors.js';
import { serviceSpecProblems } from '../provider/types/windows-service-spec-schema.js';
import type { WindowsServiceSpec } from '../provider/types/windows-service-spec.js';

type Spec = Pick<WindowsServiceSpec, 'name' | 'bootstrap' | 'priority' | 'dependencies' | 'nodeVariables'>;

/** Bootstrap rules: no node variables, and no dependency on a non-bootstrap service of the list. */
function bootstrapProblems(services: readonly Spec[]): string[] {
  const byName = new Map(services.map((s) => [s.name, s]));
  const problems: string[] = [];
  for (const s of services.filter((x) => x.bootstrap)) {
    if ((s.nodeVariables?.length ?? 0) > 0) {
      problems.push(`bootstrap service ${s.name} cannot require node variables`);
    }
    for (const dep of s.dependencies ?? []) {
      if (byName.get(dep)?.bootstrap === false) {
        problems.push(`bootstrap service ${s.name} cannot depend on non-bootstrap service ${dep}`);
      }
    }
  }
  return problems;
}

/**
 * Dependency cycles, found with a three-colour depth-first search (a correct algorithm: upstream's
 * `hasCycle` stops after the first unvisited dependency, QUIRK 6). Dependencies on services outside the
 * list are allowed and ignored. Returns each cycle once, as `a -> b -> a`.
 */
export function dependencyCycles(services: readonly Spec[]): string[][] {
  const deps = new Map(services.map((s) => [s.name, s.dependencies ?? []]));
  const state = new Map<string, 'active' | 'done'>();
  const cycles: string[][] = [];
  const stack: string[] = [];
  const visit = (name: string): void => {
    state.set(name, 'active');
    stack.push(name);
    for (const dep of deps.get(name) ?? []) {
      if (!deps.has(dep)) continue;
      const s = state.get(dep);
      if (s === 'active') cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
      else if (s === undefined) visit(dep);
    }
    stack.pop();
    state.set(name, 'done');
  };
  for (const s of services) if (!state.has(s.name)) visit(s.name);
  return cycles;
}

/** Every bootstrap service must have a strictly lower priority than every non-bootstrap service. */
function priorityProblems(services: readonly Spec[]): string[] {
  const boot = services.filter((s) => s.bootstrap).map((s) => s.priority);
  const other = services.filter((s) => !s.bootstrap).map((s) => s.priority);
  if (boot.length === 0 || other.length === 0) return [];
  const maxBoot = Math.max(...boot);
  const minOther = Math.min(...other);
  return maxBoot < minOther
    ? []
    : [
        `bootstrap service priorities (highest ${maxBoot}) must be lower than every other service's (lowest ${minOther})`,
      ];
}

function duplicateProblems(services: readonly Spec[]): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const s of services) {
    if (seen.has(s.name)) problems.push(`service ${s.name} is listed twice`);
    seen.add(s.name);
  }
  return problems;
}

/** The rules across services (reference §1.4 "Validation"), as readable problems; empty when valid. */
export function servicesListProblems(services: readonly Spec[]): string[] {
  return [
    ...duplicateProblems(services),
    ...bootstrapProblems(services),
    ...dependencyCycles(services).map((c) => `dependency cycle: ${c.join(' -> ')}`),
    ...priorityProblems(services),
  ];
}

/** Thrown when a services list breaks a rule; `problems` lists every broken rule. */
export class ServicesValidationError extends WmcoError {
  constructor(readonly problems: readonly string[]) {
    super('InvalidServices', `invalid services: ${problems.join('; ')}`);
  }
}

/** Validates each service (the single-service schema) and then the list; throws ServicesValidationError. */
export function validateServices(services: readonly WindowsServiceSpec[]): void {
  const problems = [
    ...services.flatMap((s) => serviceSpecProblems(s).map((p) => `service ${s.name}: ${p}`)),
    ...servicesListProblems(services),
  ];
  if (problems.length > 0) throw new ServicesValidationError(problems);
}

/** A copy sorted by ascending priority; stable, so equal priorities keep their given order. */
export function sortServicesByPriority<T extends Spec>(services: readonly T[]): T[] {
  return [...services].sort((a, b) => a.priority - b.priority);
}

/** The leading bootstrap services of the priority-sorted list (what starts before the Node exists). */
export function bootstrapServices<T extends Spec>(services: readonly T[]): T[] {
  const sorted = sortServicesByPriority(services);
  const firstOther = sorted.findIndex((s) => !s.bootstrap);
  return firstOther < 0 ? sorted : sorted.slice(0, firstOther);
}
