import test from 'ava';
import { countingMatch, holders, stopsCleanly } from './stop-phases.test-helper.js';
import { CHANGED_BINARY, VERSION_A, VERSION_B } from './upgrade-fixture.js';
import { NS, phaseIs, testWorld, until } from './world-fixture.js';

// Issue 28: a stop always ends, whatever the phase; each test reaches its phase by waiting on a state,
// stops the world, and checks that the stop ended, that no part overran its bound and that nothing is
// left listening (what kept `wmco sim` alive in "stopping"). Serial: they count this process's servers.

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

test.serial('starting: a stop while the controllers still sync their informers ends', async (t) => {
  const before = holders();
  const { world, logs } = await testWorld([]);
  // The CSR informer's list keeps failing: the controllers' start cannot finish syncing.
  const csrs = countingMatch('GET', CSRS);
  world.cluster.server.faults.failNext(503, { times: 1_000_000, match: csrs.match });
  await world.createPrivateKeySecret();
  const op = await world.startOperator();
  await until('the operator leads and its CSR informer fails to sync', () =>
    Promise.resolve(op.leading && !op.synced && csrs.hits() > 0 ? true : undefined),
  );
  await stopsCleanly(t, world, logs, before);
});

test.serial('starting: a stop while the operator start itself is still running ends', async (t) => {
  const before = holders();
  const { world, logs } = await testWorld([]);
  // The node records' list keeps failing: OperatorRuntime.start waits for that cache (ADR 0035).
  const records = countingMatch('GET', `/api/v1/namespaces/${NS}/configmaps`);
  world.cluster.server.faults.failNext(503, { times: 1_000_000, match: records.match });
  await world.createPrivateKeySecret();
  let startEnded = false;
  const starting = world.startOperator().then(
    () => (startEnded = true),
    () => (startEnded = true),
  );
  await until('the start waits for the node records', () =>
    Promise.resolve(records.hits() > 1 && !startEnded ? true : undefined),
  );
  await stopsCleanly(t, world, logs, before);
  await starting;
  t.true(startEnded);
  t.true(
    world.operators.every((o) => !o.leading),
    'an operator that started during the stop does not lead',
  );
});

test.serial('joining: a stop while a host is being configured ends', async (t) => {
  const before = holders();
  const { world, logs } = await testWorld([{ hostname: 'WIN-STOP-J' }], {
    costs: { powershellStartMs: 400 },
  });
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  await until('the join under way', phaseIs(world, world.hosts.hosts[0]!.address, 'Configuring'));
  await stopsCleanly(t, world, logs, before);
});

test.serial('upgrading: a stop while a node is mid-upgrade ends', async (t) => {
  const before = holders();
  const { world, logs } = await testWorld([{ hostname: 'WIN-STOP-U' }], {
    costs: { powershellStartMs: 400 },
  });
  const address = world.hosts.hosts[0]!.address;
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator('wmco-a', { version: VERSION_A });
  await until('the node Ready on version A', phaseIs(world, address, 'Ready'), 180_000);
  // Operator B ships one changed binary: it upgrades the node in place (drain, upload, apply, restart).
  const payloadDir = await world.payloadVariant('b', [CHANGED_BINARY]);
  await world.operators.at(-1)?.stop();
  await world.startOperator('wmco-b', { version: VERSION_B, payloadDir });
  await until('the upgrade under way', phaseIs(world, address, 'Upgrading'), 180_000, 20);
  await stopsCleanly(t, world, logs, before);
});

test.serial('Machines provisioning: a stop while the VMs of a MachineSet boot and join ends', async (t) => {
  const before = holders();
  const { world, logs } = await testWorld([], { platform: 'AWS', cloud: true });
  await world.createPrivateKeySecret();
  await world.startOperator();
  const api = world.machineApi();
  await api.createMachineSet({ name: 'winstop', replicas: 2, platform: 'AWS' });
  await until('a Machine provisioning', async () =>
    (await api.machines('winstop')).some((m) => m.status?.phase === 'Provisioning') ? true : undefined,
  );
  await stopsCleanly(t, world, logs, before);
});
