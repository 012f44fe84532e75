import test from 'ava';
import {
  MODULE_HASH_MISMATCH,
  encodePowerShellCommand,
  hostInvocationScript,
  loadHostModule,
  readableStderr,
} from '@wmco/core/internal';
import ssh2 from 'ssh2';
import { FREE_HOST_COSTS } from './host-costs.js';
import { ServiceBehaviourRegistry, type ServiceBehaviour } from './service-behaviour.js';
import { SimulatedWindowsHost } from './simulated-windows-host.js';
import { nextLoopbackAddress } from './windows-host-fixture.js';
import { WindowsModel } from './windows-model.js';
import { generateEd25519KeyPair } from './ssh-auth.js';

interface Raw {
  code: number | undefined;
  stdout: string;
  stderr: string;
}

/** Runs one command with a plain ssh2 client (no wmco adapter). */
function rawExec(sim: SimulatedWindowsHost, privateKey: string, command: string, stdin = ''): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    client.on('error', reject);
    client.on('ready', () => {
      client.exec(command, (err, ch) => {
        if (err) return reject(err);
        let stdout = '';
        let stderr = '';
        let code: number | undefined;
        ch.on('data', (d: Buffer) => (stdout += d.toString()));
        ch.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        ch.on('exit', (c: number) => (code = c));
        ch.on('close', () => {
          client.end();
          resolve({ code, stdout, stderr });
        });
        ch.end(stdin);
      });
    });
    client.connect({ host: sim.host, port: sim.port, username: 'Administrator', privateKey });
  });
}

for (const shell of ['cmd', 'powershell'] as const) {
  test(`a command the host does not model gets the ${shell} error, exit 1, and is logged`, async (t) => {
    const key = generateEd25519KeyPair();
    const logs: string[] = [];
    const sim = await SimulatedWindowsHost.start({
      address: nextLoopbackAddress(),
      authorizedKey: key.public,
      costs: FREE_HOST_COSTS,
      defaultShell: shell,
      log: (m) => logs.push(m),
    });
    t.teardown(() => sim.stop());
    const out = await rawExec(sim, key.private, 'hostname');
    t.is(out.code, 1);
    t.is(out.stdout, '');
    t.regex(
      out.stderr,
      shell === 'cmd'
        ? /^'hostname' is not recognized as an internal or external command,\r\noperable program or batch file\./
        : /^hostname : The term 'hostname' is not recognized as the name of a cmdlet/,
    );
    t.deepEqual(sim.unsupportedCommands, ['hostname']);
    t.is(logs.length, 1);
  });
}

test('the invocation refuses a missing module and a module whose SHA-256 differs', async (t) => {
  const key = generateEd25519KeyPair();
  const sim = await SimulatedWindowsHost.start({
    address: nextLoopbackAddress(),
    authorizedKey: key.public,
    costs: FREE_HOST_COSTS,
  });
  t.teardown(() => sim.stop());
  const module = await loadHostModule();
  const line = encodePowerShellCommand(
    hostInvocationScript({ modulePath: module.remotePath, sha256: module.sha256 }),
  );
  const missing = await rawExec(sim, key.private, line);
  t.is(missing.code, 1);
  // stderr is CLIXML (not a console), the long line wrapped at 120 columns.
  t.true(missing.stderr.startsWith('#< CLIXML\r\n<Objs '));
  t.regex(
    readableStderr(missing.stderr).replace(/\n/g, ''),
    /^Exception calling "ReadAllBytes" .*Could not find file '.*WmcoHost-[0-9a-f]{16}\.psm1'/,
  );
  // Same size, other bytes: a size check would take it; the hash check does not.
  sim.model.files.mkdirp('C:\\ProgramData\\wmco');
  const tampered = Buffer.from(module.bytes);
  tampered[tampered.length - 2] = 0x23;
  sim.model.files.write(module.remotePath, tampered);
  const altered = await rawExec(sim, key.private, line);
  t.is(altered.code, 1);
  t.true(
    readableStderr(altered.stderr)
      .replace(/\n/g, '')
      .startsWith(`${MODULE_HASH_MISMATCH}: ${module.remotePath} has SHA-256 `),
  );
  t.deepEqual(sim.invocations, [], 'the module never ran');
  sim.model.files.write(module.remotePath, module.bytes);
  const ok = await rawExec(sim, key.private, line, JSON.stringify({ v: 1, op: 'nope' }));
  t.is(ok.code, 0, 'the right bytes run');
  t.regex(ok.stdout, /"ok":false/);
});

test('a second host on a taken address and port gets a port of its own', async (t) => {
  const key = generateEd25519KeyPair();
  const address = nextLoopbackAddress();
  const a = await SimulatedWindowsHost.start({ address, authorizedKey: key.public, costs: FREE_HOST_COSTS });
  t.teardown(() => a.stop());
  const b = await SimulatedWindowsHost.start({ address, authorizedKey: key.public, costs: FREE_HOST_COSTS });
  t.teardown(() => b.stop());
  t.not(a.port, b.port);
  t.not(b.port, 22);
});

test('a behaviour can run async work until its service stops (the kubelet seam)', async (t) => {
  const ticks: number[] = [];
  let stopped = false;
  const ticking: ServiceBehaviour = {
    start(ctx) {
      const timer = setInterval(() => ticks.push(ctx.host.lastBootTime.getTime()), 5);
      ctx.signal.addEventListener('abort', () => clearInterval(timer));
      return {
        state: 'running',
        stop: () => {
          stopped = true;
          return Promise.resolve();
        },
      };
    },
  };
  const m = new WindowsModel({ behaviours: new ServiceBehaviourRegistry().register('kubelet', ticking) });
  m.files.mkdirp('C:\\k');
  m.files.write('C:\\k\\kubelet.exe', Buffer.from('x'));
  m.scm.create({
    name: 'kubelet',
    commandLine: 'C:\\k\\kubelet.exe',
    startType: 'auto',
    dependencies: [],
    description: '',
  });
  await m.scm.start('kubelet');
  await new Promise((r) => setTimeout(r, 30));
  await m.scm.stop('kubelet');
  const count = ticks.length;
  await new Promise((r) => setTimeout(r, 30));
  t.true(count > 0);
  t.is(ticks.length, count, 'no work after the stop');
  t.true(stopped);
});
