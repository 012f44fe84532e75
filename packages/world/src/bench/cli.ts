// `pnpm bench cli [--runs 10]`: how long `wmco` takes to start and answer, per command line, in fresh
// processes (the target for `--help` and `version` is under 0.3 s; kubectl answers in about 0.1 s).
// Printed: the fastest and the median of the runs, and `node -e 0` on the same machine for scale.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { OPERATOR_MAIN } from '../operator-main.js';

const MAIN = OPERATOR_MAIN;
const LINES: readonly (readonly string[])[] = [['--help'], ['version'], ['--version'], ['status', '--help']];

function seconds(args: readonly string[]): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [...args], { stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${String(run.status)}`);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function figures(args: readonly string[], runs: number): { best: number; median: number } {
  const times = Array.from({ length: runs }, () => seconds(args)).sort((a, b) => a - b);
  return { best: times[0] ?? 0, median: times[Math.floor(times.length / 2)] ?? 0 };
}

const { values } = parseArgs({ options: { runs: { type: 'string' } }, strict: true });
const runs = Number(values.runs ?? 10);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
const baseline = figures(['-e', '0'], runs);
console.log(`node -e 0: best ${baseline.best.toFixed(3)} s, median ${baseline.median.toFixed(3)} s`);
const result: Record<string, number> = { nodeSeconds: baseline.median };
for (const line of LINES) {
  const f = figures([MAIN, ...line], runs);
  console.log(`wmco ${line.join(' ')}: best ${f.best.toFixed(3)} s, median ${f.median.toFixed(3)} s`);
  result[line.join(' ')] = f.median;
}
console.log(JSON.stringify(result));
