// The WindowsHost contract for the apply's `runScript` steps and `rebootWhenRequired`, against a simulated
// host over real SSH: what lets a join bring every service level up in one apply (ADR 0022).
import test from 'ava';
import { HostOperationError, plan, type HostSpec, type Plan, type UploadFile } from '@wmco/core';
import { observeQueryFor } from '@wmco/core/internal';
import { Payload, asJoinedBefore, nodeSpec, startHostWorld, type HostWorld } from './windows-host-fixture.js';

const DEFENDER = 'C:\\Temp\\windows-defender-exclusion.ps1';

function writeFile(w: HostWorld, path: string, content: string): void {
  w.sim.model.files.mkdirp(path.replace(/\\[^\\]*$/, ''));
  w.sim.model.files.write(path, Buffer.from(content));
}

function uploadsFor(payload: Payload, p: Plan): UploadFile[] {
  const shas = new Set(p.steps.flatMap((s) => (s.kind === 'placeFile' ? [s.sha256] : [])));
  return [...shas].map((sha256) => ({ sha256, source: payload.content(sha256) }));
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('apply: a runScript step runs its pre-script before the next step, in the same PowerShell start', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  writeFile(w, DEFENDER, '# adds a Defender exclusion');
  asJoinedBefore(w);
  const payload = new Payload();
  const spec: HostSpec = {
    ...nodeSpec(payload),
    serviceScripts: {
      containerd: [
        { name: 'containerd.0', script: `${DEFENDER} -BinPath C:\\k\\containerd\\containerd.exe` },
      ],
    },
  };
  const state = await w.host.observe(observeQueryFor(spec));
  const p = plan(state, spec);
  const kinds = p.steps.map((s) => `${s.kind} ${'name' in s ? s.name : ''}`);
  t.is(
    kinds.indexOf('runScript containerd.0') + 1,
    kinds.indexOf('startService containerd'),
    kinds.join(','),
  );
  await w.host.upload(uploadsFor(payload, p));
  const starts = w.sim.stats.powershellStarts;
  const ops = w.sim.invocations.length;
  const outcome = await w.host.apply(p);
  t.deepEqual(
    w.sim.invocations.slice(ops).map((i) => i.op),
    ['apply'],
  );
  t.is(w.sim.stats.powershellStarts - starts, 0, 'answered by the PowerShell of the live connection');
  t.true(outcome.done.some((d) => d.kind === 'runScript' && d.target === 'containerd.0'));
  t.deepEqual(w.sim.unsupportedCommands, []);
  t.deepEqual(
    w.sim.invocations.at(-1)?.scripts.map((s) => s.name),
    ['containerd.0'],
    'the host heard the script as part of the apply',
  );
});

test('apply: a runScript that fails stops the apply at that step with the script error', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const err = await t.throwsAsync(
    w.host.apply({
      steps: [
        { kind: 'createDirectory', path: 'C:\\k' },
        { kind: 'runScript', name: 'kube-proxy.0', script: 'C:\\Temp\\network-conf.ps1 -verbosity 0' },
        { kind: 'createDirectory', path: 'C:\\k\\after' },
      ],
    }),
    { instanceOf: HostOperationError },
  );
  t.regex(err?.message ?? '', /step 1 \(runScript kube-proxy\.0\)/);
  t.false(w.sim.model.files.isDirectory('C:\\k\\after'), 'nothing after the failed script ran');
});

test('apply with rebootWhenRequired: the restart is scheduled by the apply; auto-start services come up at boot', async (t) => {
  const w = await startHostWorld({ model: { containersFeature: false }, costs: { rebootMs: 200 } });
  t.teardown(() => w.stop());
  const payload = new Payload();
  const spec: HostSpec = { ...nodeSpec(payload), features: ['Containers'] };
  const before = await w.host.observe(observeQueryFor(spec));
  const p = plan(before, spec);
  t.true(p.steps.some((s) => s.kind === 'installFeature'));
  await w.host.upload(uploadsFor(payload, p));
  const booted = w.sim.model.lastBootTime.getTime();
  const starts = w.sim.stats.powershellStarts;
  const ops = w.sim.invocations.length;
  // The services are created, not started: they need the feature, which needs the restart.
  const outcome = await w.host.apply(
    { steps: p.steps.filter((s) => s.kind !== 'startService') },
    { rebootWhenRequired: true },
  );
  t.true(outcome.rebootRequired);
  t.true(outcome.rebootScheduled);
  t.deepEqual(
    w.sim.invocations.slice(ops).map((i) => i.op),
    ['apply'],
    'no reboot call of its own',
  );
  t.is(w.sim.stats.powershellStarts - starts, 0);
  await until('the host to restart', () => w.sim.model.lastBootTime.getTime() > booted);
  const after = await w.host.observe(observeQueryFor(spec));
  t.true(after.containersFeature);
  t.true(after.services.every((s) => s.state === 'running'));
  t.deepEqual(plan(after, spec).steps, []);
});

test('apply with rebootWhenRequired and nothing that needs a restart does not restart', async (t) => {
  const w = await startHostWorld();
  t.teardown(() => w.stop());
  const boot = w.sim.model.lastBootTime.toISOString();
  const outcome = await w.host.apply(
    { steps: [{ kind: 'createDirectory', path: 'C:\\k' }] },
    { rebootWhenRequired: true },
  );
  t.false(outcome.rebootRequired);
  t.falsy(outcome.rebootScheduled);
  await new Promise((r) => setTimeout(r, 300));
  t.is(w.sim.model.lastBootTime.toISOString(), boot);
});
