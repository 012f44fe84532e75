import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { endSession, killSession } from './session-process.js';

/** Whether process `pid` still runs (not gone, not a zombie). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * A launcher, as a .NET tool's pwsh is: it starts a child that says its pid, then reads its input to the end
 * and exits, or (`hung`) goes on whatever comes.
 */
function launcher(hung = false): ReturnType<typeof spawn> {
  const inner = hung
    ? 'console.log(process.pid); setInterval(() => undefined, 1000);'
    : "console.log(process.pid); process.stdin.resume(); process.stdin.on('end', () => process.exit(0));";
  return spawn(
    process.execPath,
    [
      '-e',
      `const c = require('node:child_process').spawn(process.execPath, ['-e', ${JSON.stringify(inner)}], { stdio: ['pipe', 'inherit', 'inherit'] });` +
        "process.stdin.pipe(c.stdin); c.on('exit', (code) => process.exit(code ?? 1));",
    ],
    { stdio: ['pipe', 'pipe', 'inherit'], detached: true },
  );
}

async function innerPid(child: ReturnType<typeof spawn>): Promise<number> {
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return Number(line.toString().trim());
}

test('killing a session kills its whole process group: the launcher and the process it started', async (t) => {
  // The started process goes on without its launcher: only the group's kill ends it.
  const child = launcher(true);
  const inner = await innerPid(child);
  killSession(child);
  await once(child, 'exit');
  t.is(child.signalCode, 'SIGKILL');
  // Killed, it is left to init to collect: wait for that, however long the machine takes.
  while (running(inner)) await sleep(10);
  t.false(running(inner));
});

test('a closed session ends by itself at the end of its input, so its parent waits for each process', async (t) => {
  const child = launcher();
  const inner = await innerPid(child);
  endSession(child);
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  t.is(code, 0);
  t.is(signal, null);
  t.false(running(inner));
});

test('a closed session that goes on (busy or hung) is killed with its group after the grace', async (t) => {
  const busy = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)'], {
    stdio: ['pipe', 'ignore', 'inherit'],
    detached: true,
  });
  endSession(busy, 50);
  await once(busy, 'exit');
  t.is(busy.signalCode, 'SIGKILL');
});
