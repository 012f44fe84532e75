import test from 'ava';
import {
  JOIN_COSTS,
  cgroupCpus,
  cgroupMemory,
  defaultParallelJoins,
  machineResources,
  type ReadText,
} from './join-concurrency.js';

const GiB = 2 ** 30;
const MiB = 2 ** 20;
const files =
  (f: Record<string, string>): ReadText =>
  (p) =>
    f[p];

test('joins at once follow the memory their connections hold', (t) => {
  t.is(JOIN_COSTS.bytesPerJoin, 16 * MiB);
  // (512 MiB − 150 MiB baseline) ÷ 16 MiB per join = 22 joins, whatever the CPUs.
  t.like(defaultParallelJoins({ cpus: 8, memoryBytes: 512 * MiB, source: 'test' }), {
    parallelJoins: 22,
    byMemory: 22,
  });
  t.is(defaultParallelJoins({ cpus: 1, memoryBytes: 512 * MiB, source: 'test' }).parallelJoins, 22);
  t.is(defaultParallelJoins({ cpus: 2, memoryBytes: 200 * MiB, source: 'test' }).parallelJoins, 3);
});

test('the default stays within --parallel-joins bounds (1 to 50)', (t) => {
  t.is(defaultParallelJoins({ cpus: 64, memoryBytes: 256 * GiB, source: 'test' }).parallelJoins, 50);
  t.is(defaultParallelJoins({ cpus: 4, memoryBytes: 100 * MiB, source: 'test' }).parallelJoins, 1);
});

test('cgroup v2 cpu.max gives CPUs from quota and period; "max" is no quota', (t) => {
  t.is(cgroupCpus(files({ '/sys/fs/cgroup/cpu.max': '150000 100000\n' })), 1.5);
  t.is(cgroupCpus(files({ '/sys/fs/cgroup/cpu.max': 'max 100000\n' })), undefined);
  t.is(cgroupCpus(files({})), undefined);
});

test('cgroup v1 cfs quota and period are read when there is no cpu.max; -1 is no quota', (t) => {
  const v1 = (quota: string): ReadText =>
    files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': quota, '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000' });
  t.is(cgroupCpus(v1('200000')), 2);
  t.is(cgroupCpus(v1('-1')), undefined);
});

test('memory.max (v2) or memory.limit_in_bytes (v1) is the limit; "max" and v1\'s huge value are none', (t) => {
  t.is(cgroupMemory(files({ '/sys/fs/cgroup/memory.max': '536870912\n' })), 512 * MiB);
  t.is(cgroupMemory(files({ '/sys/fs/cgroup/memory.max': 'max\n' })), undefined);
  t.is(cgroupMemory(files({ '/sys/fs/cgroup/memory/memory.limit_in_bytes': '1073741824' })), GiB);
  t.is(
    cgroupMemory(files({ '/sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712' })),
    undefined,
  );
});

test("in a container the cgroup's limits narrow the machine's CPUs and memory", (t) => {
  const pod = files({ '/sys/fs/cgroup/cpu.max': '100000 100000', '/sys/fs/cgroup/memory.max': `${GiB}` });
  const r = machineResources(pod, { cpus: 16, memoryBytes: 64 * GiB });
  t.deepEqual(r, { cpus: 1, memoryBytes: GiB, source: 'cgroup CPU quota, cgroup memory limit' });
  // 1 GiB: (1024 − 150) ÷ 16 MiB = 54, capped at 50 joins.
  t.like(defaultParallelJoins(r), { parallelJoins: 50, byMemory: 54 });
  const bare = machineResources(files({}), { cpus: 2, memoryBytes: 8 * GiB });
  t.deepEqual(bare, { cpus: 2, memoryBytes: 8 * GiB, source: 'CPUs, memory' });
  const loose = machineResources(pod, { cpus: 0.5 * 2, memoryBytes: 512 * MiB });
  t.deepEqual(loose, { cpus: 1, memoryBytes: 512 * MiB, source: 'cgroup CPU quota, cgroup memory limit' });
});
