import test from 'ava';
import { spawnSync } from 'node:child_process';
import { childrenCpuSeconds, parseChildrenCpu } from './proc-stats.js';

test("/proc stat's cutime and cstime give the ended children's CPU seconds (a command name with spaces)", (t) => {
  // Fields from the state on: 13 of them up to stime, then cutime 350 and cstime 50 (ticks of 1/100 s).
  const fields = ['S', ...Array.from({ length: 12 }, (_, i) => String(i + 1)), '350', '50', '20', '0'];
  t.is(parseChildrenCpu(`4242 (pwsh (host) 1) ${fields.join(' ')}`), 4);
  t.throws(() => parseChildrenCpu('4242 (x) S 1 2'), { message: /no cutime/ });
});

test('a child that ran and was waited for adds its CPU to this process', (t) => {
  const before = childrenCpuSeconds();
  // A fixed amount of work (not a time): the child's CPU is at least one clock tick on any machine.
  const r = spawnSync(process.execPath, [
    '-e',
    'let x = 0; for (let i = 0; i < 3e8; i++) x = (x + i) % 7; process.exit(x > 7 ? 1 : 0)',
  ]);
  t.is(r.status, 0);
  t.true(childrenCpuSeconds() - before >= 0.01);
});
