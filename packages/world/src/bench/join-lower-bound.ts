import type { HostCosts } from '@wmco/sim';

/** One service the join starts on a host, and what its start needs. */
export interface ServiceNeed {
  readonly name: string;
  /** Services it depends on (its SCM dependencies): it starts after they run. */
  readonly dependencies: readonly string[];
  /** The payload files its command line names (its executable, a wrapper), by name. */
  readonly files: readonly string[];
}

/** What one host must receive and start, independent of how a design goes about it. */
export interface HostJoinWork {
  /** Compressed bytes of every payload file the host needs, by file name. */
  readonly fileBytes: ReadonlyMap<string, number>;
  readonly services: readonly ServiceNeed[];
  /** The service whose start the node's API round trips must follow (the kubelet). */
  readonly kubelet: string;
}

/**
 * API round trips that causally follow the kubelet's start, one after the other, in any join: the kubelet
 * creates its client CSR, the CSR is approved, the kubelet (with its certificate) creates its Node, the
 * kubelet reports the Node Ready, and the joiner, having seen Ready, marks the node configured. The
 * operator's labels and the hybrid-overlay subnet may go beside these, so they are not counted.
 */
export const API_ROUND_TRIPS_AFTER_KUBELET = 5;

/** The lower bound of one host's join and the path that decides it. */
export interface HostJoinBound {
  readonly seconds: number;
  readonly decidedBy: string;
  /** Each bound considered, in seconds: the join cannot end before any of them. */
  readonly bounds: Readonly<Record<string, number>>;
}

const lower = (s: string): string => s.toLowerCase();

/** Transitive closure of a service's dependencies, itself included (a dependency loop ends). */
function closure(byName: ReadonlyMap<string, ServiceNeed>, name: string): ServiceNeed[] {
  const seen = new Map<string, ServiceNeed>();
  const visit = (n: string): void => {
    const s = byName.get(lower(n));
    if (!s || seen.has(lower(s.name))) return;
    seen.set(lower(s.name), s);
    s.dependencies.forEach(visit);
  };
  visit(name);
  return [...seen.values()];
}

function bytesOf(work: HostJoinWork, files: Iterable<string>): number {
  let n = 0;
  for (const f of new Set(files)) n += work.fileBytes.get(f) ?? 0;
  return n;
}

/**
 * The longest path through the dependencies any join design must respect, on one host:
 * - one PowerShell start (and one round trip) before anything runs on the host;
 * - the host's link carries every byte one after another, from one round trip on: the files a service
 *   and its dependencies name cannot all have arrived before their bytes crossed it, in the best order;
 * - each service starts (one service start's time) after its files arrived, after the PowerShell start,
 *   and after the services it depends on run;
 * - the service files' last byte belongs to some service that still has to start;
 * - the API round trips that follow the kubelet's start.
 * The schedule leaves out every cost a design could avoid (extra PowerShell starts, serial uploads,
 * waiting); transfers and starts of independent services may overlap.
 */
export function hostJoinBound(
  work: HostJoinWork,
  costs: HostCosts,
  apiRoundTripSeconds: number,
): HostJoinBound {
  const latency = costs.latencyMs / 1000;
  const link = (bytes: number): number =>
    Number.isFinite(costs.bandwidthBytesPerSec) ? latency + bytes / costs.bandwidthBytesPerSec : 0;
  const start = costs.serviceStartMs / 1000;
  const powershell = (costs.powershellStartMs + costs.latencyMs) / 1000;
  const byName = new Map(work.services.map((s) => [lower(s.name), s]));
  const running = new Map<string, number>();
  const runningAt = (s: ServiceNeed): number => {
    const known = running.get(lower(s.name));
    if (known !== undefined) return known;
    running.set(lower(s.name), 0); // a dependency loop ends here
    const files = link(
      bytesOf(
        work,
        closure(byName, s.name).flatMap((x) => x.files),
      ),
    );
    const deps = s.dependencies.map((d) => byName.get(lower(d))).filter((d) => d !== undefined);
    const at = Math.max(powershell, files, ...deps.map(runningAt)) + start;
    running.set(lower(s.name), at);
    return at;
  };
  const services = Math.max(0, ...work.services.map(runningAt));
  const kubelet = byName.get(lower(work.kubelet));
  const bounds: Record<string, number> = {
    'every byte over the link': link(bytesOf(work, work.fileBytes.keys())),
    'last service file, then its start':
      work.services.length > 0
        ? link(
            bytesOf(
              work,
              work.services.flatMap((s) => s.files),
            ),
          ) + start
        : 0,
    'service dependencies': services,
    'kubelet, then API round trips': kubelet
      ? runningAt(kubelet) + API_ROUND_TRIPS_AFTER_KUBELET * apiRoundTripSeconds
      : 0,
  };
  const [decidedBy, seconds] = Object.entries(bounds).reduce((a, b) => (b[1] > a[1] ? b : a));
  return { seconds, decidedBy, bounds };
}
