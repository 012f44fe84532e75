import test from 'ava';
import { generateEd25519KeyPair } from '@wmco/sim';
import { settled } from './machine-wait.js';
import { phaseIs, testWorld, until } from './world-fixture.js';
import { wmcoCli } from './wmco-cli.js';

// `wmco plan` lists BYOH nodes and Windows Machines together, with a SOURCE column, and says what the
// operator would do to each Machine: nothing, join (renamed first on vSphere), ignore, replace.

interface MachineRow {
  source: string;
  machine: string;
  node?: string;
  action: string;
  reason: string;
}
interface PlanJson {
  nodes: { source: string; node: string; result: string }[];
  machines: MachineRow[];
  summary: string;
}

test.serial('wmco plan: BYOH nodes and Machines together, with the action per Machine', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-A' }], { platform: 'VSphere' });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  const operator = await world.startOperator();
  const api = world.machineApi();
  await api.createMachineSet({ name: 'win', replicas: 1, platform: 'VSphere' });
  await api.createMachineSet({
    name: 'winign',
    replicas: 1,
    platform: 'VSphere',
    labels: { 'windowsmachineconfig.openshift.io/ignore': 'true' },
  });
  const address = world.hosts.hosts[0]!.address;
  await until(`${address} Ready`, phaseIs(world, address, 'Ready'), 90_000);
  const [joined] = await settled(world, 'win', 1);

  // With the operator stopped, a new Machine is Provisioned and waits to be joined.
  await operator.stop();
  await api.scale('win', 2);
  const fresh = await until('a second Machine Provisioned with an InternalIP', async () => {
    const m = (await api.machines('win')).find((x) => x.metadata.name !== joined?.metadata.name);
    const ip = m?.status?.addresses?.some((a) => a.type === 'InternalIP');
    return m && m.status?.phase === 'Provisioned' && ip ? m : undefined;
  });
  const ignored = (await api.machines('winign'))[0]!;

  const run = await wmcoCli(world, 'plan', '--payload', world.payloadDir, '-o', 'json');
  t.is(run.code, 0, run.stderr);
  const plan = JSON.parse(run.stdout) as PlanJson;
  t.like(plan.nodes[0], { source: 'BYOH', result: 'no-changes' });
  const row = (name: string | undefined): MachineRow | undefined =>
    plan.machines.find((m) => m.machine === name);
  t.like(row(joined?.metadata.name), {
    source: 'Machine',
    action: 'check-drift',
    node: joined?.metadata.name,
  });
  t.like(row(fresh.metadata.name), { source: 'Machine', action: 'join' });
  t.regex(
    row(fresh.metadata.name)?.reason ?? '',
    new RegExp(`renaming the host to ${fresh.metadata.name} first`),
  );
  t.like(row(ignored.metadata.name), { action: 'ignore' });
  t.is(plan.machines.length, 3);
  t.regex(
    plan.summary,
    /Machines: 1 to join, 0 to upgrade, reboot or resume, 0 to replace, 1 unchanged, 0 waiting, 1 ignored\./,
  );

  const text = await wmcoCli(world, 'plan', '--payload', world.payloadDir);
  t.is(text.code, 0, text.stderr);
  t.regex(text.stdout, /^SOURCE\s+INSTANCE\s+NODE\s+ACTION\s+DETAIL$/m);
  t.regex(text.stdout, new RegExp(`^BYOH\\s+${address.replace(/\./g, '\\.')}\\s+\\S+\\s+nothing\\s+`, 'm'));
  t.regex(
    text.stdout,
    new RegExp(`^Machine\\s+${fresh.metadata.name}\\s+-\\s+join\\s+configure as Administrator`, 'm'),
  );

  // A new private key: the joined Machine's node carries the old key's hash, so it would be replaced.
  // Naming the Machine plans only it (no SSH to the BYOH host, whose key is now the old one).
  await world.createPrivateKeySecret(generateEd25519KeyPair().private);
  const rekey = await wmcoCli(
    world,
    'plan',
    '--payload',
    world.payloadDir,
    '-o',
    'json',
    joined!.metadata.name,
  );
  t.is(rekey.code, 0, rekey.stderr);
  const after = JSON.parse(rekey.stdout) as PlanJson;
  t.deepEqual(after.nodes, []);
  t.is(after.machines.length, 1);
  t.like(after.machines[0], { machine: joined?.metadata.name, action: 'replace' });
  t.regex(after.machines[0]?.reason ?? '', /another private key/);
});
