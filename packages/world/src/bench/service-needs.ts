import type { ServiceNeed } from './join-lower-bound.js';
import type { ServiceSnapshot } from './join-run.js';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What each service's start needs of the payload: the files its command line names (a path ending in the
 * file's name: its executable, the kube-log-runner wrapper). Files it reads without naming them are not
 * counted, which can only lower the bound.
 */
export function serviceNeeds(
  services: readonly ServiceSnapshot[],
  fileNames: Iterable<string>,
): ServiceNeed[] {
  const names = [...fileNames];
  return services.map((s) => ({
    name: s.name,
    dependencies: s.dependencies,
    files: names.filter((f) =>
      new RegExp(`(^|[\\\\/\\s"'])${escape(f)}($|[\\s"'])`, 'i').test(s.commandLine),
    ),
  }));
}
