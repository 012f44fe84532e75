import type { ServiceState } from '../host/protocol/index.js';

const key = (name: string): string => name.toLowerCase();

/** Every observed service that depends, directly or not, on one of `names` and is not stopped. */
export function runningDependents(names: readonly string[], observed: readonly ServiceState[]): string[] {
  const found = new Set(names.map(key));
  const out: string[] = [];
  let grew = true;
  while (grew) {
    grew = false;
    for (const svc of observed) {
      if (found.has(key(svc.name)) || svc.state === 'stopped') continue;
      if (svc.dependencies.some((d) => found.has(key(d)))) {
        found.add(key(svc.name));
        out.push(svc.name);
        grew = true;
      }
    }
  }
  return out;
}

/**
 * Orders services so each comes after every service of the set it depends on; among those free to go,
 * lower priority first, then by name. `reverse` gives the stop order (dependents first).
 */
export function dependencyOrder(
  names: readonly string[],
  dependenciesOf: (name: string) => readonly string[],
  priorityOf: (name: string) => number,
): string[] {
  const pending = [...new Set(names)].sort((a, b) => priorityOf(a) - priorityOf(b) || a.localeCompare(b));
  const inSet = new Set(pending.map(key));
  const done = new Set<string>();
  const out: string[] = [];
  while (pending.length > 0) {
    const ready = (n: string): boolean =>
      dependenciesOf(n).every((d) => !inSet.has(key(d)) || done.has(key(d)));
    // A dependency cycle cannot be satisfied; break it at the first remaining service.
    const index = Math.max(0, pending.findIndex(ready));
    const [next] = pending.splice(index, 1);
    if (next === undefined) break;
    done.add(key(next));
    out.push(next);
  }
  return out;
}

/**
 * `dependencyOrder` cut into levels: a service's level is one more than the highest level among the
 * services of the set it depends on (0 when none), so the services of one level can start together once
 * the levels before it are running. Each level keeps `dependencyOrder`'s order (priority, then name).
 */
export function dependencyLevels(
  names: readonly string[],
  dependenciesOf: (name: string) => readonly string[],
  priorityOf: (name: string) => number,
): string[][] {
  const levelOf = new Map<string, number>();
  const levels: string[][] = [];
  for (const name of dependencyOrder(names, dependenciesOf, priorityOf)) {
    // A dependency outside the set, or one a broken cycle puts later, does not hold the service back.
    const level = 1 + Math.max(-1, ...dependenciesOf(name).map((d) => levelOf.get(key(d)) ?? -1));
    levelOf.set(key(name), level);
    (levels[level] ??= []).push(name);
  }
  return levels;
}
