import test from 'ava';
import { parseProc } from './proc-stats.js';
import { batchSummary, driftCycles, scaleFigures } from './scale-figures.js';

const point = (atMs: number, cpuSeconds: number, apiRequests: number, driftChecks: number) => ({
  atMs,
  cpuSeconds,
  apiRequests,
  driftChecks,
});

test('CPU per drift cycle, API requests per minute and the largest RSS of the steady state', (t) => {
  const m = {
    nodes: 1000,
    start: point(0, 100, 5000, 2000),
    end: point(120_000, 160, 11_000, 32_000),
    rssBytes: [150 * 2 ** 20, 170 * 2 ** 20, 160 * 2 ** 20],
  };
  t.is(driftCycles(m), 30);
  t.deepEqual(scaleFigures(m), {
    nodes: 1000,
    rssMiB: 170,
    cpuSecondsPerDriftCycle: 2,
    apiRequestsPerMinute: 3000,
  });
});

test('a steady state without drift checks, time or samples has no figures', (t) => {
  const base = { nodes: 10, start: point(0, 1, 1, 5), end: point(1000, 2, 2, 5), rssBytes: [1] };
  t.throws(() => scaleFigures(base), { message: /at least one drift check/ });
  t.throws(() => scaleFigures({ ...base, end: point(1000, 2, 2, 15), rssBytes: [] }), {
    message: /memory sample/,
  });
});

test('/proc status and stat give RSS, peak RSS and CPU seconds (a command name with spaces and parentheses)', (t) => {
  const status = 'Name:\tnode\nVmHWM:\t  204800 kB\nVmRSS:\t  153600 kB\nThreads:\t11\n';
  const fields = ['S', ...Array.from({ length: 10 }, (_, i) => String(i + 1)), '1234', '266'];
  const stat = `4242 (node (scale) op) ${fields.join(' ')} 0 0 20 0 11`;
  t.deepEqual(parseProc(status, stat), {
    rssBytes: 150 * 2 ** 20,
    peakRssBytes: 200 * 2 ** 20,
    cpuSeconds: 15,
  });
  t.throws(() => parseProc('Name: x\n', stat), { message: /no VmRSS/ });
});

test('a batch summary names the median, the slowest join and where it spent its time', (t) => {
  const s = batchSummary([
    { address: '127.0.0.1', joinSeconds: 2, phaseSeconds: { Configuring: 1.5 } },
    { address: '127.0.0.2', joinSeconds: 31.25, phaseSeconds: { Configuring: 1.25, WaitingForNode: 30 } },
    { address: '127.0.0.3', joinSeconds: 3 },
    { address: '127.0.0.4' },
  ]);
  t.is(s, 'joins median 3 s, slowest 31.25 s (127.0.0.2: Configuring 1.25 s, WaitingForNode 30 s)');
  t.is(batchSummary([{ address: 'x' }]), 'no join times');
});
