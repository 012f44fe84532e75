import type { LoggedRequest } from '@wmco/sim';
import { until } from '../world/world-fixture.js';
import { sampleProcess } from './proc-stats.js';
import type { ScalePoint } from './scale-figures.js';
import type { ScaleCluster } from './scale-world.js';
import type { SoakOperator } from './soak-operator.js';

/** What `pnpm bench scale` measured over the replayed hour, from one operator process. */
export interface SteadyState {
  readonly start: ScalePoint;
  readonly end: ScalePoint;
  readonly rssBytes: readonly number[];
  /** The operator's requests over the window, by method and resource (most first). */
  readonly requests: readonly [string, number][];
}

/** The operator process and the API server now: CPU, the operator's requests, drift checks. */
async function point(world: ScaleCluster, op: SoakOperator, pid: number): Promise<ScalePoint> {
  const [proc, { driftChecks }] = await Promise.all([sampleProcess(pid), op.sample()]);
  const apiRequests = world.world.cluster.server.requestsByUser.get(world.operatorUser) ?? 0;
  return { atMs: Date.now(), cpuSeconds: proc.cpuSeconds, apiRequests, driftChecks };
}

/** `GET configmaps`, `PUT leases`...: a request's method and the resource its path names. */
export function requestKind(r: Pick<LoggedRequest, 'method' | 'path' | 'watch'>): string {
  const parts = r.path.split('/').filter((p) => p !== '');
  // /api/v1/<res>[/<name>[/<sub>]], /api/v1/namespaces/<ns>/<res>[/...], /apis/<group>/<version>/...
  const rest = parts.slice(parts[0] === 'apis' ? 3 : 2);
  const resource = rest[0] === 'namespaces' && rest.length > 2 ? rest.slice(2) : rest;
  const sub = resource.length > 2 ? `/${resource[2]}` : '';
  return `${r.watch ? 'WATCH' : r.method} ${resource[0] ?? r.path}${sub}`;
}

/** The operator's requests since the log's `total` was `since`, counted by kind, most first. */
export function countRequests(
  log: readonly Pick<LoggedRequest, 'method' | 'path' | 'watch' | 'user'>[],
  user: string,
): [string, number][] {
  const counts = new Map<string, number>();
  for (const r of log) if (r.user === user) counts.set(requestKind(r), (counts.get(requestKind(r)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

/**
 * One replayed hour (`windowMs`) measured on one operator process. A process that exits during it (a lost
 * Lease on a starved machine: the bench starts another, as a Deployment would) makes the window start
 * again once the new one has done a drift cycle, at most `attempts` times: CPU and memory figures of two
 * processes cannot be added up.
 */
export async function steadyState(
  world: ScaleCluster,
  op: SoakOperator,
  o: { readonly windowMs: number; readonly nodes: number; readonly attempts: number },
): Promise<SteadyState> {
  for (let attempt = 1; ; attempt++) {
    await oneDriftCycle(op, o.nodes);
    const pid = await op.pid();
    const restarts = op.unexpectedExits;
    const log = world.world.cluster.server.requests;
    const since = log.total;
    const start = await point(world, op, pid);
    const rssBytes: number[] = [];
    while (Date.now() - start.atMs < o.windowMs && op.unexpectedExits === restarts) {
      rssBytes.push((await sampleProcess(pid).catch(() => ({ rssBytes: 0 }))).rssBytes);
      await new Promise((r) => setTimeout(r, 2000));
    }
    if (op.unexpectedExits === restarts && (await op.pid()) === pid) {
      const end = await point(world, op, pid);
      return { start, end, rssBytes, requests: countRequests(log.since(since), world.operatorUser) };
    }
    if (attempt >= o.attempts)
      throw new Error(`the operator process exited during each of ${o.attempts} steady-state windows`);
    console.log(`  the operator process ${pid} exited during the steady state; measuring its successor`);
  }
}

/** Waits until the running operator finished one drift check per node more than now. */
async function oneDriftCycle(op: SoakOperator, nodes: number): Promise<void> {
  const from = (await op.sample()).driftChecks;
  const pid = await op.pid();
  await until(
    'one drift cycle',
    async () => {
      // A successor process counts its checks from 0: the cycle is counted from its own start.
      const s = await op.sample().catch(() => undefined);
      if (s === undefined) return undefined;
      const base = (await op.pid()) === pid ? from : 0;
      return s.driftChecks >= base + nodes ? true : undefined;
    },
    30 * 60_000,
    1000,
  );
}
