import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import ssh2 from 'ssh2';
import { DEFAULT_HOST_COSTS, generateEd25519KeyPair } from '@wmco/sim';
import { defaultHostsPerProcess, hostGroups, HostProcesses } from './host-processes.js';
import { alive, gone, processesMentioning } from './process-liveness.test-helper.js';

const PAIR = generateEd25519KeyPair();
const KEY = PAIR.public;

/** Writes `text` to `path` on the host at `address` over SFTP, as the operator stages files. */
function sftpWrite(address: string, port: number, path: string, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client.on('error', reject);
    client.on('ready', () =>
      client.sftp((err, sftp) => {
        if (err) return reject(err);
        sftp.writeFile(path, text, (e) => {
          client.end();
          if (e) reject(e);
          else resolve();
        });
      }),
    );
    client.connect({ host: address, port, username: 'Administrator', privateKey: PAIR.private });
  });
}

async function withDir<T>(f: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'wmco-host-processes-'));
  try {
    return await f(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const task = (dir: string, payloadDir = dir): Parameters<typeof HostProcesses.start>[2] => ({
  authorizedKey: KEY,
  costs: DEFAULT_HOST_COSTS,
  payloadDir,
  vxlanPort: 4789,
  engine: 'model',
  dir,
});

test('hosts spread over one process per core, never more processes than hosts', (t) => {
  t.is(defaultHostsPerProcess(1, 2), 1);
  t.is(defaultHostsPerProcess(10, 2), 5);
  t.is(defaultHostsPerProcess(50, 2), 25);
  t.is(defaultHostsPerProcess(3, 8), 1);
  t.deepEqual(hostGroups(['a', 'b', 'c', 'd', 'e'], 2), [['a', 'b'], ['c', 'd'], ['e']]);
  t.throws(() => hostGroups(['a'], 0), { message: /positive integer/ });
});

test('each host process runs its hosts and answers for them; stop ends every process', async (t) => {
  await withDir(async (dir) => {
    const hp = await HostProcesses.start(['WIN-HP-1', 'WIN-HP-2', 'WIN-HP-3'], 2, task(dir));
    try {
      t.is(hp.processes.length, 2);
      t.deepEqual(
        hp.hosts.map((h) => h.hostname),
        ['WIN-HP-1', 'WIN-HP-2', 'WIN-HP-3'],
      );
      t.true(hp.pids.every((p) => p !== process.pid && alive(p)));
      const addresses = hp.hosts.map((h) => h.address).reverse();
      const snaps = await hp.snapshots(addresses);
      t.deepEqual(
        snaps.map((s) => s.address),
        addresses,
      );
      // Fresh hosts: nothing uploaded yet, nothing started by a join.
      t.true(snaps.every((s) => s.work.bytes === 0 && s.work.powershellStarts === 0));
      const usage = await hp.usage();
      t.is(usage.length, 2);
      t.true(usage.every((u) => u.cpuSeconds > 0 && u.peakRssMiB > 10));
      await t.throwsAsync(hp.snapshots(['127.254.254.254']), {
        message: 'no host process holds 127.254.254.254',
      });
    } finally {
      await hp.stop();
    }
    t.true(await gone(hp.pids));
  });
});

test('hosts listen on the addresses given, and the processes say which hosts hold a file with a text', async (t) => {
  await withDir(async (dir) => {
    const addresses = ['127.77.1.10', '127.77.1.11', '127.77.1.12'];
    const names = ['WIN-AD-1', 'WIN-AD-2', 'WIN-AD-3'];
    const hp = await HostProcesses.start(names, 2, { ...task(dir), addresses });
    try {
      t.deepEqual(
        hp.hosts.map((h) => h.address),
        addresses,
      );
      const path = 'C:\\ProgramData\\probe.txt';
      t.deepEqual(await hp.containing(path, 'mirror'), []);
      for (const h of [hp.hosts[0]!, hp.hosts[2]!]) await sftpWrite(h.address, h.port, path, 'a mirror here');
      t.deepEqual((await hp.containing(path, 'mirror')).sort(), ['127.77.1.10', '127.77.1.12']);
      t.deepEqual(await hp.containing(path, 'absent'), []);
    } finally {
      await hp.stop();
    }
  });
});

test('host processes that cannot start fail the start with their error, and none stays behind', async (t) => {
  await withDir(async (dir) => {
    // knowPayloadFiles of a folder that does not exist fails in every process.
    const err = await t.throwsAsync(
      HostProcesses.start(['WIN-BAD-1', 'WIN-BAD-2'], 1, task(dir, join(dir, 'no-payload'))),
    );
    t.regex(err.message, /failed to start: .*ENOENT/);
    t.true(await gone(processesMentioning(dir)));
  });
});

test('when one host process cannot start, those that did are stopped', async (t) => {
  await withDir(async (dir) => {
    // The second process's task is refused (a host with no name); the first starts its host.
    const err = await t.throwsAsync(HostProcesses.start(['WIN-GOOD-1', ''], 1, task(dir)));
    t.regex(err.message, /failed to start: the host process task: malformed message at hostnames\.0/);
    const left = processesMentioning(dir);
    t.true(await gone(left), `still running: ${left.filter(alive).join(', ')}`);
  });
});

const parent = fileURLToPath(new URL('./host-processes-parent.test-helper.js', import.meta.url));

/** Starts the helper parent and resolves with the pids it printed. */
function startParent(args: readonly string[]): Promise<{ pid: number; children: number[] }> {
  const child = spawn(process.execPath, [parent, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve({ pid: child.pid!, children: JSON.parse(out) as number[] });
    });
    child.once('exit', (code) => (out.includes('\n') ? undefined : reject(new Error(`parent exit ${code}`))));
  });
}

test('host processes end when the process that started them is killed (SIGKILL: no clean-up ran)', async (t) => {
  await withDir(async (dir) => {
    const p = await startParent(['hosts', dir, KEY]);
    t.is(p.children.length, 2);
    t.true(p.children.every(alive));
    process.kill(p.pid, 'SIGKILL');
    t.true(await gone(p.children), `still running: ${p.children.filter(alive).join(', ')}`);
  });
});

test('a child registered with reapOnExit is killed when its parent exits without stopping it', async (t) => {
  const p = await startParent(['sleep']);
  t.true(await gone([p.pid]));
  t.true(await gone(p.children), `sleep ${p.children.join(', ')} outlived its parent`);
});
