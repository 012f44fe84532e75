// A parent process for host-processes.test.ts, run with `node <this> <mode> <payloadDir> <publicKey>`:
// `hosts` starts two host processes (one host each) and prints their pids, then waits to be killed;
// `sleep` starts a `sleep 600` child registered with reapOnExit, prints its pid and exits at once.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { DEFAULT_HOST_COSTS } from '@wmco/sim';
import { reapOnExit } from './child-reaper.js';
import { HostProcesses } from './host-processes.js';

const [mode, payloadDir = '', authorizedKey = ''] = process.argv.slice(2);
if (mode === 'sleep') {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  reapOnExit(child);
  process.stdout.write(`${JSON.stringify([child.pid])}\n`, () => process.exit(3));
} else {
  const hosts = await HostProcesses.start(['WIN-PARENT-1', 'WIN-PARENT-2'], 1, {
    authorizedKey,
    costs: DEFAULT_HOST_COSTS,
    payloadDir,
    vxlanPort: 9898,
    engine: 'model',
    dir: tmpdir(),
  });
  process.stdout.write(`${JSON.stringify(hosts.pids)}\n`);
  setInterval(() => undefined, 60_000);
}
