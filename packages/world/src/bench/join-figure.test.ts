import test from 'ava';
import { coresBusy, cpuPerGB, figure } from './join-figure.js';
import type { JoinRun } from './join-run.js';

const MB = 1e6;
const run = (seconds: number): JoinRun => ({
  hosts: 1,
  failures: [],
  seconds,
  sampledSeconds: seconds + 0.5,
  work: [],
  services: [
    [
      { name: 'containerd', dependencies: [], commandLine: 'C:\\k\\containerd\\containerd.exe' },
      { name: 'kubelet', dependencies: ['containerd'], commandLine: 'C:\\k\\kubelet.exe' },
    ],
  ],
  phases: {},
  cpuSeconds: 1,
  hostProcesses: 1,
  hostsCpuSeconds: 1,
  hostsChildrenCpuSeconds: 0,
  hostsPeakRssMiB: 100,
  hostsEventLoopBusy: 0.5,
  operatorCpuSeconds: 0.5,
  operatorPeakRssMiB: 100,
  bytesShipped: 250 * MB,
  plain: { cpuSeconds: 0.25, bytes: 125 * MB, seconds: 1 },
  apiRoundTripSeconds: 0.002,
  eventLoopBusy: 0.5,
});
// 125 MB over the default 1 Gbit/s link: in at 1.001 s, the kubelet running at 1.201, then 5 API round trips.
const FILES = new Map([
  ['containerd.exe', 25 * MB],
  ['kubelet.exe', 100 * MB],
]);

test('a join at or above its lower bound is printed with its ratio', (t) => {
  const f = figure(run(2.422), FILES, 1000 * MB, 2);
  t.is(Math.round(f.limit * 1000), 1211);
  t.regex(f.line, /ratio 2 /);
  t.regex(f.line, /one host: kubelet, then API round trips/);
});

test('a join faster than its limit fails the bench, naming the limit as wrong', (t) => {
  const e = t.throws(() => figure(run(1.1), FILES, 1000 * MB, 2));
  t.regex(e.message, /limit is wrong/);
});

test("many hosts: every host's payload through this machine's SSH can bound the join", (t) => {
  const many = { ...run(30), hosts: 50 };
  // 50 × 125 MB at 250 MB/s = 25 s, above one host's 1.211 s.
  const f = figure(many, FILES, 250 * MB, 2);
  t.is(f.limit, 25);
  t.regex(f.line, /SSH throughput/);
});

test("the plain client's throughput in the same run bounds the join when it beat the SSH measurement", (t) => {
  // 50 × 125 MB: at the measured 250 MB/s 25 s, but the plain client shipped 6,250 MB in 20 s (312.5 MB/s).
  const many = { ...run(30), hosts: 50, plain: { cpuSeconds: 5, bytes: 6250 * MB, seconds: 20 } };
  const f = figure(many, FILES, 250 * MB, 2);
  t.is(f.limit, 20);
  t.regex(f.line, /at 312\.5 MB\/s, this run's plain client's/);
  t.throws(() => figure({ ...many, seconds: 19 }, FILES, 250 * MB, 2), { message: /limit is wrong/ });
});

test("CPU per GB: the operator's process per byte it shipped beside the plain ssh2 client's", (t) => {
  // Operator 0.5 s for 0.25 GB = 2 s/GB; plain 0.25 s for 0.125 GB = 2 s/GB; over two runs, the sums.
  t.deepEqual(cpuPerGB([run(3)]), { operator: 2, plainSsh: 2 });
  const other = {
    ...run(3),
    operatorCpuSeconds: 1.5,
    plain: { cpuSeconds: 0.25, bytes: 375 * MB, seconds: 1 },
  };
  t.deepEqual(cpuPerGB([run(3), other]), { operator: 4, plainSsh: 1 });
  t.deepEqual(cpuPerGB([]), { operator: 0, plainSsh: 0 });
});

test('cores busy: the CPU of the operator, the hosts and the API server over the seconds sampled', (t) => {
  // 0.5 + 1 + 1 CPU seconds over 2.5 s sampled: one core busy on average.
  t.is(coresBusy(run(2)), 1);
  t.regex(figure(run(2.422), FILES, 1000 * MB, 2).line, /cores busy 0\.86 of 2/);
  // The hosts' PowerShell processes count too: 2.5 + 2.5 over 2.5 s.
  t.is(coresBusy({ ...run(2), hostsChildrenCpuSeconds: 2.5 }), 2);
  t.is(coresBusy({ ...run(2), sampledSeconds: 0 }), 0);
});
