import test from 'ava';
import { parseProc } from './proc-stats.js';
import { driftCycles, scaleFigures } from './scale-figures.js';

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
