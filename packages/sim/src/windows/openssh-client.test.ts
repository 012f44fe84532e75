import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  encodePowerShellCommand,
  HOST_MODULE_FILE,
  HOST_PROTOCOL_VERSION,
  hostInvocationScript,
  hostSessionScript,
  loadHostModule,
  SESSION_READY_MARKER,
  SESSION_RESULT_PREFIX,
} from '@wmco/core/internal';
import { FREE_HOST_COSTS } from './host-costs.js';
import { ensureOpenSshClient, OpenSshClient } from './openssh-client.test-helper.js';
import { SimulatedWindowsHost } from './simulated-windows-host.js';
import { generateEd25519KeyPair } from './ssh-auth.js';
import { nextLoopbackAddress } from './windows-host-fixture.js';

// Debian's real OpenSSH client against a simulated host, as an admin inspects a Windows node.
// "Promptly": the client ends by itself (`ended`); a server that never closes the channel hangs it until
// the helper's safety timeout kills it.
const missing = ensureOpenSshClient();

async function startHost(): Promise<{ sim: SimulatedWindowsHost; client: OpenSshClient }> {
  if (missing) throw new Error(missing);
  const key = generateEd25519KeyPair();
  const sim = await SimulatedWindowsHost.start({
    address: nextLoopbackAddress(),
    port: 0,
    authorizedKey: key.public,
    costs: FREE_HOST_COSTS,
  });
  sim.model.files.mkdirp('C:\\k');
  sim.model.files.write('C:\\k\\kubelet.log', Buffer.from('I1123 kubelet started\r\n'));
  return { sim, client: new OpenSshClient(key.private, sim.host, sim.port) };
}

test('sftp -b: ls, get and put with /C:/k paths, then bye ends the session with exit 0', async (t) => {
  const { sim, client } = await startHost();
  t.teardown(() => sim.stop());
  const local = join(client.workDir, 'upload.txt');
  writeFileSync(local, 'from the admin\n');
  const batch = [
    'ls /C:/k',
    'ls -l /C:/k',
    `get /C:/k/kubelet.log ${join(client.workDir, 'kubelet.log')}`,
    `put ${local} /C:/k/notes.txt`,
    'cd /C:/k',
    'pwd',
    'bye',
  ].join('\n');
  const r = await client.sftp(`${batch}\n`);
  t.is(r.code, 0, r.stderr);
  t.true(r.ended, 'sftp ended by itself');
  t.regex(r.stdout, /^\/C:\/k\/kubelet\.log\s*$/m);
  t.regex(r.stdout, /^-rw-\*{6}\s+1 \S+\s+\S+\s+23 \w{3} [ \d]\d \d\d:\d\d kubelet\.log$/m);
  t.regex(r.stdout, /Remote working directory: \/C:\/k$/m);
  t.is(readFileSync(join(client.workDir, 'kubelet.log'), 'utf8'), 'I1123 kubelet started\r\n');
  t.is(sim.model.files.read('C:\\k\\notes.txt')?.toString(), 'from the admin\n');
});

test('sftp -b: a missing file fails the batch with the server status, still promptly', async (t) => {
  const { sim, client } = await startHost();
  t.teardown(() => sim.stop());
  const r = await client.sftp(`get /C:/k/missing.log ${join(client.workDir, 'x')}\nbye\n`);
  t.is(r.code, 1);
  t.true(r.ended, 'sftp ended by itself');
  t.regex(r.stderr, /missing\.log.*(not found|No such file)/i);
});

test('ssh exec of a command the host does not run ends at once with the shell error, stdin open', async (t) => {
  const { sim, client } = await startHost();
  t.teardown(() => sim.stop());
  // No stdin given: the client's stdin stays open, so only the server's exit-status and close end it.
  const r = await client.ssh('hostname');
  t.is(r.code, 1);
  t.true(r.ended, 'ssh ended by itself');
  t.regex(r.stderr, /'hostname' is not recognized as an internal or external command/);
});

test('the host module run by hand: put with sftp, then ssh with the request on stdin answers one JSON line', async (t) => {
  const { sim, client } = await startHost();
  t.teardown(() => sim.stop());
  const module = await loadHostModule();
  const remote = `/${module.remotePath.replace(/\\/g, '/')}`;
  const put = await client.sftp(`mkdir /C:/ProgramData/wmco\nput ${HOST_MODULE_FILE} ${remote}\nbye\n`);
  t.is(put.code, 0, put.stderr);
  t.true(sim.model.files.read(module.remotePath)?.equals(module.bytes));
  const request = {
    v: HOST_PROTOCOL_VERSION,
    op: 'observe',
    directories: ['C:\\k'],
    files: ['C:\\k\\kubelet.log'],
    services: [],
    envVars: [],
    firewallRules: [],
  };
  const command = encodePowerShellCommand(
    hostInvocationScript({ modulePath: module.remotePath, sha256: module.sha256 }),
  );
  const r = await client.ssh(command, JSON.stringify(request));
  t.is(r.code, 0, r.stderr);
  t.true(r.ended, 'ssh ended by itself');
  const result = JSON.parse(r.stdout) as { ok: boolean; op: string };
  t.like(result, { ok: true, op: 'observe' });
});

test('a host module session run by hand: two request lines on stdin, the ready line and two results, exit 0 at EOF', async (t) => {
  const { sim, client } = await startHost();
  t.teardown(() => sim.stop());
  const module = await loadHostModule();
  const request = (files: string[]): string =>
    JSON.stringify({
      v: HOST_PROTOCOL_VERSION,
      op: 'observe',
      directories: [],
      files,
      services: [],
      envVars: [],
      firewallRules: [],
    });
  const command = encodePowerShellCommand(
    hostSessionScript({ modulePath: module.remotePath, sha256: module.sha256 }, true),
  );
  const stdin = `${module.bytes.toString('base64')}\n${request([])}\n${request(['C:\\k\\kubelet.log'])}\n`;
  const r = await client.ssh(command, stdin);
  t.is(r.code, 0, r.stderr);
  t.true(r.ended, 'ssh ended by itself');
  const lines = r.stdout.split(/\r?\n/).filter((l) => l !== '');
  t.is(lines[0], SESSION_READY_MARKER);
  const results = lines.slice(1).map((l) => {
    t.true(l.startsWith(SESSION_RESULT_PREFIX), l.slice(0, 40));
    return JSON.parse(l.slice(SESSION_RESULT_PREFIX.length)) as { state: { files: unknown[] } };
  });
  t.is(results.length, 2);
  t.deepEqual(
    results.map((x) => x.state.files.length),
    [0, 1],
    'each line is answered in order',
  );
  t.true(sim.model.files.read(module.remotePath)?.equals(module.bytes), 'the module line was written');
  t.is(sim.stats.powershellStarts, 1);
});
