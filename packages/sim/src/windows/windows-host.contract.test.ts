// The WindowsHost contract, run against a simulated Windows host over real SSH (ssh2 on loopback).
import test from 'ava';
import {
  AuthenticationError,
  HostCommandTimeoutError,
  HostKeyMismatchError,
  HostUnreachableError,
  InvalidHostRequestError,
  converge,
  plan,
  type HostSpec,
} from '@wmco/core';
import { observeQueryFor } from '@wmco/core/internal';
import { Payload, nodeSpec, startHostWorld } from './windows-host-fixture.js';
import { generateEd25519KeyPair } from './ssh-auth.js';

async function waitFor(condition: () => boolean, ms = 2000): Promise<void> {
  for (const end = Date.now() + ms; !condition() && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

const emptyQuery = { directories: [], files: [], services: [], envVars: [], firewallRules: [] };

test('observe an empty host', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const spec = nodeSpec(new Payload());
  const state = await w.host.observe(observeQueryFor(spec));
  t.deepEqual(state.services, []);
  t.deepEqual(state.files, []);
  t.deepEqual(state.directories, []);
  t.deepEqual(state.envVars, {});
  t.deepEqual(state.staged, []);
  t.is(state.hostname, 'WIN-SIM');
  t.is(state.os.build, 20348);
  t.false(state.containersFeature);
  t.is(state.defaultShell, 'cmd');
  t.is(plan(state, spec).steps.length, 18);
});

test('apply a plan, observe the result, and a second converge is empty', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const payload = new Payload();
  const spec = nodeSpec(payload);
  const first = await converge(w.host, spec, payload.content);
  t.true(first.outcome.rebootRequired, 'setting an env var needs a reboot');
  t.is(first.upload.uploaded.length, 6);
  const after = await w.host.observe(observeQueryFor(spec));
  t.deepEqual(
    after.files.map((f) => [f.path, f.sha256]),
    spec.files.map((f) => [f.path, f.sha256]),
  );
  t.deepEqual(
    after.services.map((s) => [s.name, s.state, s.startType, s.description]),
    [
      ['containerd', 'running', 'auto', 'OpenShift managed containerd'],
      ['kube-proxy', 'running', 'auto', 'OpenShift managed kube-proxy'],
      ['kubelet', 'running', 'auto', 'OpenShift managed kubelet'],
    ],
  );
  t.deepEqual(after.envVars, { HTTP_PROXY: 'http://proxy:3128' });
  t.true(after.routes.some((r) => r.destinationPrefix === '169.254.169.254/32' && r.nextHop === '10.0.0.1'));
  t.deepEqual(
    after.firewallRules.map((r) => r.name),
    ['HybridOverlayVXLAN'],
  );
  t.deepEqual(after.staged, [], 'staged files are consumed by a successful apply');

  const starts = w.sim.stats.powershellStarts;
  const ops = w.sim.invocations.length;
  const second = await converge(w.host, spec, payload.content);
  t.deepEqual(second.plan.steps, []);
  t.is(second.upload.bytesSent, 0);
  t.deepEqual(
    w.sim.invocations.slice(ops).map((i) => i.op),
    ['observe'],
    'a no-op converge is one observe',
  );
  t.is(w.sim.stats.powershellStarts - starts, 0, 'answered by the PowerShell of the live connection');
});

test('services stop dependents first and start in priority order', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const payload = new Payload();
  await converge(w.host, nodeSpec(payload, 'v1'), payload.content);
  const mark = w.sim.model.scm.events.length;
  const upgrade = await converge(w.host, nodeSpec(payload, 'v2'), payload.content);
  const order = upgrade.plan.steps.filter((s) => s.kind === 'stopService' || s.kind === 'startService');
  t.deepEqual(
    order.map((s) => `${s.kind} ${'name' in s ? s.name : ''}`),
    [
      'stopService kube-proxy',
      'stopService kubelet',
      'stopService containerd',
      'startService containerd',
      'startService kubelet',
      'startService kube-proxy',
    ],
  );
  t.deepEqual(
    w.sim.model.scm.events.slice(mark).map((e) => `${e.action} ${e.name}`),
    [
      'stop kube-proxy',
      'stop kubelet',
      'stop containerd',
      'start containerd',
      'start kubelet',
      'start kube-proxy',
    ],
  );
  const files = upgrade.plan.steps.filter((s) => s.kind === 'placeFile');
  t.is(files.length, 3, 'only the three changed binaries move');
});

test('a reboot drops the connection; the host comes back with auto-start services running', async (t) => {
  const w = await startHostWorld({ costs: { rebootMs: 200 } });
  t.teardown(() => w.stop());
  const payload = new Payload();
  const spec: HostSpec = { ...nodeSpec(payload), features: ['Containers'], hostname: 'win-node-1' };
  const first = await converge(w.host, spec, payload.content);
  t.true(first.outcome.rebootRequired);
  const before = await w.host.observe(observeQueryFor(spec));
  t.is(before.hostname, 'WIN-SIM', 'a rename waits for the reboot');
  await w.host.reboot();
  const after = await w.host.observe(observeQueryFor(spec));
  t.not(after.lastBootTime, before.lastBootTime);
  t.is(after.hostname, 'win-node-1');
  t.true(after.containersFeature);
  t.true(after.services.every((s) => s.state === 'running'));
  t.true(w.host.stats.connects >= 2, 'the adapter reconnected');
  t.deepEqual(plan(after, spec).steps, []);
});

test('an interrupted upload leaves no partial file in place and the next converge completes', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const payload = new Payload();
  const big = Buffer.alloc(1024 * 1024, 7);
  const base = nodeSpec(payload);
  const spec: HostSpec = {
    ...base,
    files: [...base.files, { path: 'C:\\k\\big.exe', sha256: payload.add(big) }],
  };
  w.sim.faults.dropAfterUploadBytes = 300_000;
  await t.throwsAsync(converge(w.host, spec, payload.content));
  t.false(w.sim.model.files.isFile('C:\\k\\big.exe'));
  const state = await w.host.observe(observeQueryFor(spec));
  const bigSha = spec.files.at(-1)!.sha256;
  t.false(state.staged.includes(bigSha), 'the interrupted file is not staged');
  t.is(state.staged.length, base.files.length, 'files sent before the drop stay staged');
  const done = await converge(w.host, spec, payload.content);
  t.deepEqual(done.upload.uploaded, [bigSha], 'only the interrupted file is sent again');
  t.true(w.sim.model.files.read('C:\\k\\big.exe')?.equals(big));
});

test('a reboot in the middle of an apply is survived by the next converge', async (t) => {
  const w = await startHostWorld({ costs: { rebootMs: 100 } });
  t.teardown(() => w.stop());
  const payload = new Payload();
  const spec = nodeSpec(payload);
  w.sim.faults.rebootDuringApplyAtStep = 5;
  await t.throwsAsync(converge(w.host, spec, payload.content));
  const again = await converge(w.connect(), spec, payload.content);
  t.true(again.plan.steps.length > 0);
  const state = await w.host.observe(observeQueryFor(spec));
  t.deepEqual(plan(state, spec).steps, []);
});

test('close() ends the connection; a later call reconnects', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  await w.host.observe(emptyQuery);
  t.is(w.sim.openConnections, 1);
  await w.host.close();
  await waitFor(() => w.sim.openConnections === 0);
  t.is(w.sim.openConnections, 0);
  t.is(w.host.stats.moduleInstalls, 1, 'the first call carried the module');
  await w.host.observe(emptyQuery);
  t.is(w.host.stats.connects, 2);
  t.is(w.host.stats.moduleInstalls, 1, 'the module is installed once per version, not per connection');
  // Someone deletes the module under a live connection: its session runs the module it loaded and checked.
  w.sim.model.files.remove('C:\\ProgramData\\wmco');
  t.is((await w.host.observe(emptyQuery)).hostname, 'WIN-SIM');
  t.is(w.host.stats.moduleInstalls, 1);
  // A new session that expects the module finds it missing, sends it, and goes on.
  const fresh = w.connect({ assumeModule: true });
  t.teardown(() => fresh.close());
  t.is((await fresh.observe(emptyQuery)).hostname, 'WIN-SIM');
  t.is(fresh.stats.moduleInstalls, 1, 'the module was sent again');
  t.is(fresh.stats.powershellStarts, 2, 'the session that failed its module check, then one with the module');
});

test('a staged file whose hash is wrong is refused and removed; the next converge sends it again', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const payload = new Payload();
  const spec = nodeSpec(payload);
  const first = spec.files[0]!;
  const staged = `C:\\ProgramData\\wmco\\staging\\${first.sha256}`;
  await w.host.upload(spec.files.map((f) => ({ sha256: f.sha256, source: payload.content(f.sha256) })));
  w.sim.model.files.write(staged, Buffer.from('tampered'));
  const err = await t.throwsAsync(converge(w.host, spec, payload.content));
  t.regex(err.message, /staged file for 'C:\\k\\containerd\\containerd\.exe' has SHA-256/);
  t.false(w.sim.model.files.isFile(staged));
  t.false(w.sim.model.files.isFile(first.path), 'nothing was moved into place');
  const again = await converge(w.host, spec, payload.content);
  t.deepEqual(again.upload.uploaded, [first.sha256]);
  t.deepEqual(plan(await w.host.observe(observeQueryFor(spec)), spec).steps, []);
  // A staged file of the wrong size is replaced by upload() itself.
  const sha = payload.add('late file');
  w.sim.model.files.write(`C:\\ProgramData\\wmco\\staging\\${sha}`, Buffer.from('short'));
  const report = await w.host.upload([{ sha256: sha, source: payload.content(sha) }]);
  t.deepEqual(report.uploaded, [sha]);
  t.is(w.sim.model.files.read(`C:\\ProgramData\\wmco\\staging\\${sha}`)?.toString(), 'late file');
});

test('a wrong key fails with AuthenticationError', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const other = generateEd25519KeyPair();
  const err = await t.throwsAsync(w.connect({ privateKey: other.private }).observe(emptyQuery));
  t.true(err instanceof AuthenticationError, String(err));
  w.sim.faults.refuseAuthentication = true;
  const refused = await t.throwsAsync(w.connect().observe(emptyQuery));
  t.true(refused instanceof AuthenticationError, String(refused));
});

test('a changed host key fails with HostKeyMismatchError and is never pinned', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  await w.host.observe(emptyQuery);
  const pinned = await w.keys.get(w.host.address);
  t.is(pinned?.base64, w.sim.hostKeyBase64);
  await w.host.close();
  await w.sim.rotateHostKey();
  const err = await t.throwsAsync(w.connect().observe(emptyQuery));
  t.true(err instanceof HostKeyMismatchError, String(err));
  t.is((await w.keys.get(w.host.address))?.base64, pinned?.base64);
});

for (const shell of ['cmd', 'powershell'] as const) {
  test(`a ${shell} default shell works`, async (t) => {
    const w = await startHostWorld({ defaultShell: shell });
    t.teardown(() => w.stop());
    const payload = new Payload();
    const spec = nodeSpec(payload);
    await converge(w.host, spec, payload.content);
    const state = await w.host.observe(observeQueryFor(spec));
    t.is(state.defaultShell, shell);
    t.deepEqual(plan(state, spec).steps, []);
    t.deepEqual(w.sim.unsupportedCommands, []);
  });
}

test('a hung command fails with HostCommandTimeoutError', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const host = w.connect({ commandTimeoutMs: 300 });
  await host.observe(emptyQuery);
  w.sim.faults.hangNextCommand = true;
  const err = await t.throwsAsync(host.observe(emptyQuery));
  t.true(err instanceof HostCommandTimeoutError, String(err));
});

test('keepalive notices a silent partition long before the command timeout', async (t) => {
  const w = await startHostWorld({ costs: { powershellStartMs: 300 } });
  t.teardown(() => w.stop());
  // A command timeout that never comes: only the keepalive can end the hung request within the test.
  const host = w.connect({ keepaliveIntervalMs: 100, commandTimeoutMs: 3_600_000, connectDeadlineMs: 200 });
  await host.observe(emptyQuery);
  // The next request would be answered at once by the live session: it hangs instead, then the link goes.
  w.sim.faults.hangNextCommand = true;
  const pending = host.observe(emptyQuery);
  setTimeout(() => w.sim.partition(), 50);
  const err = await t.throwsAsync(pending);
  t.true(err instanceof HostUnreachableError, String(err));
});

test('an injection attempt in any user-supplied string is inert', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const payload = new Payload();
  const evilPath = "C:\\k\\$(Remove-Item C:\\k -Recurse)'; & del C:\\k.exe";
  const evilName = "evil'; Stop-Computer -Force; '";
  const evilValue = '"; Remove-Item C:\\ -Recurse; & shutdown /s & "';
  const spec: HostSpec = {
    ...nodeSpec(payload),
    files: [...nodeSpec(payload).files, { path: evilPath, sha256: payload.add('x') }],
    services: [
      ...nodeSpec(payload).services,
      { name: evilName, command: `"${evilPath}" --flag "$(whoami)"`, bootstrap: false, priority: 9 },
    ],
    envVars: { HTTP_PROXY: evilValue },
  };
  await converge(w.host, spec, payload.content);
  t.true(w.sim.model.files.isFile(evilPath), 'the odd path is just a file name');
  t.is(w.sim.model.scm.get(evilName)?.commandLine, `"${evilPath}" --flag "$(whoami)"`);
  t.is(w.sim.model.envVars.get('http_proxy')?.value, evilValue);
  t.is(w.sim.model.scm.get(evilName)?.state, 'running');
  // One PowerShell session (first contact: the module on its stdin) answered every call.
  t.is(w.sim.commandLines.size, 1, 'every call went through one fixed command line');
  for (const line of w.sim.commandLines) {
    t.false(line.includes('evil') || line.includes('Remove-Item'));
  }
  const badHostname = { ...spec, hostname: 'a&calc' };
  const err = await t.throwsAsync(converge(w.host, badHostname, payload.content));
  t.true(err instanceof InvalidHostRequestError, String(err));
  t.is(w.sim.model.pendingHostname, undefined);
});

test('deconfigure removes services (dependents stopped first), env vars, HNS networks and directories', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const payload = new Payload();
  const base = nodeSpec(payload);
  const spec: HostSpec = {
    ...base,
    files: [...base.files, { path: 'C:\\k\\hybrid-overlay-node.exe', sha256: payload.add('hybrid-overlay') }],
    services: [
      ...base.services,
      {
        name: 'hybrid-overlay-node',
        command: 'C:\\k\\hybrid-overlay-node.exe --k8s-kubeconfig=C:\\k\\kubeconfig',
        bootstrap: false,
        priority: 3,
      },
    ],
  };
  await converge(w.host, spec, payload.content);
  const networks = ['BaseOVNKubernetesHybridOverlayNetwork', 'OVNKubernetesHybridOverlayNetwork'];
  const before = await w.host.observe(observeQueryFor(spec));
  t.deepEqual(
    before.hnsNetworks.map((n) => n.name),
    networks,
  );
  const mark = w.sim.model.scm.events.length;
  const out = await w.host.deconfigure({
    services: ['containerd'],
    removeTaggedServices: true,
    envVars: ['HTTP_PROXY'],
    hnsNetworks: networks,
    directories: ['C:\\var\\log\\kubelet', 'C:\\k'],
    keep: ['C:\\k\\kubeconfig'],
  });
  t.true(out.rebootRequired, 'removing a system env var needs a reboot');
  t.deepEqual(
    w.sim.model.scm.events.slice(mark, mark + 4).map((e) => `${e.action} ${e.name}`),
    ['stop kube-proxy', 'stop kubelet', 'stop containerd', 'delete containerd'],
  );
  const after = await w.host.observe(observeQueryFor(spec));
  t.deepEqual(after.services, []);
  t.deepEqual(after.envVars, {});
  t.deepEqual(after.hnsNetworks, []);
  t.deepEqual(
    after.files.map((f) => f.path),
    ['C:\\k\\kubeconfig'],
  );
  t.deepEqual(after.directories, ['C:\\k']);
});

test('parallel calls queue in the one PowerShell session of the connection', async (t) => {
  const w = await startHostWorld({ costs: { powershellStartMs: 20 } });
  t.teardown(() => w.stop());
  const host = w.connect({ maxChannels: 2 });
  const states = await Promise.all(Array.from({ length: 8 }, () => host.observe(emptyQuery)));
  t.is(states.length, 8);
  t.is(w.sim.stats.maxOpenExecs, 1);
  t.is(w.sim.stats.powershellStarts, 1, 'one powershell.exe answered all eight');
  t.is(host.stats.connects, 1, 'one connection carries every channel');
});

test('authentication failures are retried within the auth window (sshd still being set up)', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  w.sim.faults.refuseAuthentication = true;
  setTimeout(() => delete w.sim.faults.refuseAuthentication, 150);
  const host = w.connect({ authRetryMs: 3000 });
  const state = await host.observe(emptyQuery);
  t.is(state.hostname, 'WIN-SIM');
});
