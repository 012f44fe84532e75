import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { descendantsCpuSeconds, parseStatTimes } from './proc-stats.js';

/** A fixed amount of work (not a time): at least one clock tick of CPU on any machine. */
const WORK = 'let x = 0; for (let i = 0; i < 3e8; i++) x = (x + i) % 7;';

test("/proc stat gives the parent, the CPU and the ended children's CPU (a command name with spaces)", (t) => {
  // From the state on: ppid 77, then up to utime 250 and stime 50, cutime 350 and cstime 50 (1/100 s ticks).
  const fields = ['S', '77', ...Array.from({ length: 9 }, (_, i) => String(i + 1)), '250', '50', '350', '50'];
  t.deepEqual(parseStatTimes(`4242 (pwsh (host) 1) ${fields.join(' ')} 20 0`), {
    pid: 4242,
    ppid: 77,
    cpuSeconds: 3,
    childrenCpuSeconds: 4,
  });
  t.throws(() => parseStatTimes('4242 (x) S 1 2'), { message: /no pid, ppid/ });
});

test.serial('a child that ran and was waited for adds its CPU to this process', (t) => {
  const before = descendantsCpuSeconds();
  const r = spawnSync(process.execPath, ['-e', `${WORK} process.exit(x > 7 ? 1 : 0)`]);
  t.is(r.status, 0);
  t.true(descendantsCpuSeconds() - before >= 0.01);
});

test.serial('a child still running counts with the CPU it used so far', async (t) => {
  const before = descendantsCpuSeconds();
  // It works, says so, then waits for its stdin to end: it is still running when its CPU is read.
  const child = spawn(process.execPath, ['-e', `${WORK} console.log(x); process.stdin.resume();`], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await once(child.stdout, 'data');
  t.true(descendantsCpuSeconds() - before >= 0.01);
  child.stdin.end();
  await once(child, 'exit');
});

test.serial(
  "a running child's running child counts too (a .NET tool's pwsh runs the real one as its child)",
  async (t) => {
    const before = descendantsCpuSeconds();
    // The child starts a grandchild that works and says so, then both wait for stdin to end.
    const grandchild = `${WORK} console.log(x); process.stdin.resume();`;
    const child = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: ['pipe', 'inherit', 'inherit'] }); process.stdin.on('end', () => c.stdin.end()); process.stdin.resume();`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await once(child.stdout, 'data');
    // More than the child itself used: the grandchild's work (the child's ended children are none yet).
    const own = parseStatTimes(readFileSync(`/proc/${child.pid}/stat`, 'utf8')).cpuSeconds;
    t.true(descendantsCpuSeconds() - before - own >= 0.01);
    child.stdin.end();
    await once(child, 'exit');
  },
);
