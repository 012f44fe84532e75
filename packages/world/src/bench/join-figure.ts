import { DEFAULT_HOST_COSTS } from '@wmco/sim';
import { joinLimit, LimitNotALowerBoundError, ms } from './join-limit.js';
import { hostJoinBound } from './join-lower-bound.js';
import type { JoinRun } from './join-run.js';
import { serviceNeeds } from './service-needs.js';

/** One printed figure of `pnpm bench join`: a run beside its limit. */
export interface Figure {
  readonly run: JoinRun;
  readonly limit: number;
  readonly line: string;
}

/** The kubelet's service name on a node (what the API round trips of a join wait for). */
const KUBELET = 'kubelet';

/**
 * A run beside its limit (the slowest host's lower bound, or every byte through this machine's SSH at the
 * best throughput seen: the SSH measurement's, or this run's plain client's). A run faster than its limit
 * throws: the limit would not be a lower bound, and its ratio would mislead.
 */
export function figure(
  run: JoinRun,
  fileBytes: ReadonlyMap<string, number>,
  sshBytesPerSec: number,
  cores: number,
): Figure {
  const paths = run.services.map((services) =>
    hostJoinBound(
      { fileBytes, services: serviceNeeds(services, fileBytes.keys()), kubelet: KUBELET },
      DEFAULT_HOST_COSTS,
      run.apiRoundTripSeconds,
    ),
  );
  const slowest = paths.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  const perHost = [...fileBytes.values()].reduce((a, b) => a + b, 0);
  // The plain client of this run ran as the join does (its own process, the hosts in theirs), so it can use
  // every core: at many hosts it can ship faster than the SSH measurement (one process), which is then no bound.
  const plainRate = run.plain.seconds > 0 ? run.plain.bytes / run.plain.seconds : 0;
  const throughput = Math.max(sshBytesPerSec, plainRate);
  const limit = joinLimit(slowest.seconds, perHost * run.hosts, throughput);
  const parts = Object.entries(slowest.bounds)
    .map(([k, v]) => `${k} ${ms(v)}`)
    .join(', ');
  const ratio = run.seconds / limit.seconds;
  const line =
    `${String(run.hosts).padStart(2)} host(s): ${ms(run.seconds)} s  limit ${ms(limit.seconds)} s (${limit.bound}; ` +
    `one host: ${slowest.decidedBy} of [${parts}]; SSH ${ms(limit.encryption)} s = ${perHost * run.hosts} B ` +
    `at ${ms(throughput / 1e6)} MB/s, ${plainRate > sshBytesPerSec ? "this run's plain client's" : 'the SSH measurement'})  ` +
    `ratio ${ms(ratio)}  operator CPU ${ms(run.operatorCpuSeconds / run.hosts)} s/join ` +
    `(${cpuPerGB([run]).operator} s/GB; plain ssh2 ${cpuPerGB([run]).plainSsh} s/GB, ` +
    `shipping the same files to the same hosts in ${ms(run.plain.seconds)} s)  ` +
    `event loop busy: API server ${Math.round(run.eventLoopBusy * 100)} %, ` +
    `busiest host process ${Math.round(run.hostsEventLoopBusy * 100)} %; ` +
    `cores busy ${coresBusy(run)} of ${cores}`;
  if (ratio < 1) throw new LimitNotALowerBoundError(line);
  return { run, limit: limit.seconds, line };
}

/**
 * How many of this machine's cores the run kept busy on average: the CPU seconds of the operator, the host
 * processes (and their PowerShell processes) and the API server's process between the two samples, over the
 * seconds between them. Near the machine's cores, the world and the operator together were CPU-bound, and
 * the wall time says as much about the simulated hosts' share of the cores as about the operator.
 */
export function coresBusy(run: JoinRun): number {
  const cpu = run.operatorCpuSeconds + run.hostsCpuSeconds + run.hostsChildrenCpuSeconds + run.cpuSeconds;
  return run.sampledSeconds > 0 ? Math.round((cpu / run.sampledSeconds) * 100) / 100 : 0;
}

/** CPU seconds per GB shipped: the operator's (its process alone) and a plain ssh2 client's, over all runs. */
export function cpuPerGB(runs: readonly JoinRun[]): { operator: number; plainSsh: number } {
  const sum = (f: (r: JoinRun) => number): number => runs.reduce((n, r) => n + f(r), 0);
  const per = (cpu: number, bytes: number): number => (bytes > 0 ? ms(cpu / (bytes / 1e9)) : 0);
  return {
    operator: per(
      sum((r) => r.operatorCpuSeconds),
      sum((r) => r.bytesShipped),
    ),
    plainSsh: per(
      sum((r) => r.plain.cpuSeconds),
      sum((r) => r.plain.bytes),
    ),
  };
}
