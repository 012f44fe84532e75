import type { Logger } from '../kube/logger.js';
import type { InstanceStatusStore } from '../lifecycle/instance-status.js';
import { ByohControllers, type ByohControllersOptions } from '../sources/byoh/byoh-controllers.js';
import { byohSource, embedderSource, type ListedSource } from '../sources/byoh/listed-source.js';
import { reportedStatus } from './reported-status.js';
import type { WmcoControllersOptions } from './wmco-controllers-options.js';

/**
 * The listed sources `WmcoCore.controllers()` runs: `windows-instances` (unless `byoh: false`; its hosts
 * from the embedder's `instances` list when given) and each of the embedder's `sources`. Throws when none
 * is left, or on a source id that is not a DNS-1123 label, is a built-in source's, or is given twice.
 */
export function listedSources(o: WmcoControllersOptions): ListedSource[] {
  const seen = new Set<string>();
  const own = (o.sources ?? []).map((s) => {
    if (seen.has(s.id)) throw new Error(`source id ${JSON.stringify(s.id)} is given twice`);
    seen.add(s.id);
    return embedderSource(s.id, s.hosts);
  });
  const all = [...(o.byoh === false ? [] : [byohSource(o.instances)]), ...own];
  if (all.length === 0)
    throw new Error('byoh: false leaves no source of Windows hosts: pass your own in `sources`');
  return all;
}

/**
 * The status store every flow writes with: each embedder's list hears of each status of its own hosts
 * (InstanceList.report), whichever flow (join, upgrade, drift repair, removal) writes it.
 */
export function reportingStatus(
  store: InstanceStatusStore,
  sources: readonly ListedSource[],
  logger: Logger,
): InstanceStatusStore {
  return sources.reduce((s, src) => (src.list ? reportedStatus(s, src.list, logger, src.id) : s), store);
}

/** What every listed source's controllers share. */
export type ListedSourceCommon = Omit<ByohControllersOptions, 'source' | 'approveCsrs' | 'listedEntries'>;

/**
 * One `ByohControllers` per listed source, each with its own work queue, registered with the shared
 * `NodeMaintenance` (so a configuration change requeues its nodes at once) and with the same drift
 * scheduling. The first decides the kubelet CSRs of all (the registrations and records are shared).
 */
export function buildListedSources(
  sources: readonly ListedSource[],
  common: ListedSourceCommon,
): ByohControllers[] {
  const built: ByohControllers[] = [];
  const listedEntries = (): string[] => built.flatMap((b) => Object.keys(b.instances() ?? {}));
  for (const source of sources) {
    built.push(
      new ByohControllers({
        ...common,
        source,
        approveCsrs: built.length === 0,
        ...(sources.length > 1 ? { listedEntries } : {}),
      }),
    );
  }
  return built;
}
