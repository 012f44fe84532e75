// A fresh join uploads what the bootstrap services need first, applies that while the rest of the payload
// uploads, and places the rest in the node round (join-rounds.ts, deferred-files.ts). A host that restarts
// at the end of its first apply gets every file first.
import test from 'ava';
import { CORE_PAYLOAD } from '@wmco/core';
import { phaseIs, testWorld, until } from './world-fixture.js';

const file = (path: string): string => path.split('\\').pop()!.toLowerCase();
const BOOTSTRAP = ['kubelet.exe', 'kube-log-runner.exe', 'containerd.exe'];
const NODE = ['hybrid-overlay-node.exe', 'kube-proxy.exe', 'csi-proxy.exe', 'windows_exporter.exe'];

test.serial(
  'the bootstrap apply places only what its services name; the node round places the rest',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }], { driftRepairIntervalMs: 0 });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    const h = world.hosts.hosts[0]!;
    const files = h.sim.model.files;
    // When the kubelet runs, hybrid-overlay's binary is not in place (the bootstrap apply of an earlier
    // design placed every file before it started a service). How much of the rest has arrived by then is
    // timing, logged only: `pnpm bench join` measures what the overlap is worth.
    await until(
      'kubelet running',
      () => Promise.resolve(h.sim.model.scm.get('kubelet')?.state === 'running' ? true : undefined),
      60_000,
      10,
    );
    t.false(files.isFile('C:\\k\\hybrid-overlay-node.exe'));
    const placed = CORE_PAYLOAD.filter((f) => files.isFile(`${f.directory}\\${f.name}`)).length;
    const staged = files.list('C:\\ProgramData\\wmco\\staging').filter((e) => !e.name.endsWith('.part'));
    t.log(`kubelet running: ${placed} payload files in place, ${staged.length} more staged`);
    await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 90_000);
    const applies = h.sim.invocations.filter((i) => i.op === 'apply');
    t.is(applies.length, 2);
    const [first, second] = applies.map((a) => (a.placed ?? []).map(file));
    for (const name of BOOTSTRAP) t.true(first!.includes(name), `${name} in the bootstrap apply`);
    for (const name of NODE) {
      t.false(first!.includes(name), `${name} not in the bootstrap apply`);
      t.true(second!.includes(name), `${name} in the node round's apply`);
    }
    for (const f of CORE_PAYLOAD) t.true(files.isFile(`${f.directory}\\${f.name}`), f.name);
    t.deepEqual(files.list('C:\\ProgramData\\wmco\\staging'), [], 'nothing left in staging');
  },
);

test.serial('a host that restarts after its first apply gets every payload file in that apply', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-B', containersFeature: false }], {
    driftRepairIntervalMs: 0,
  });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  const h = world.hosts.hosts[0]!;
  await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 90_000);
  const first = (h.sim.invocations.find((i) => i.op === 'apply')?.placed ?? []).map(file);
  for (const f of CORE_PAYLOAD) t.true(first.includes(f.name.toLowerCase()), `${f.name} in the first apply`);
});
