// Issue 29, item 6: the operator's SERVICES_LOG_* settings reach a joined node end to end: every service
// the node runs is started through kube-log-runner with its own log file and the rotation flags.
import test from 'ava';
import { phaseIs, testWorld, until } from './world-fixture.js';

const RUNNER = 'C:\\k\\kube-log-runner.exe';

test('SERVICES_LOG_* settings: every service of a joined node runs under kube-log-runner with them', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-LOGS' }]);
  t.teardown(() => world.stop());
  const host = world.hosts.hosts[0]!;
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator('wmco-0', { servicesLog: { size: '100M', age: '168h', flushInterval: '10s' } });
  await until(`${host.address} Ready`, phaseIs(world, host.address, 'Ready'), 90_000);

  const services = host.sim.model.scm.all();
  const flags = '-log-file-size=100M -log-file-age=168h -flush-interval=10s';
  const kubelet = services.find((s) => s.name === 'kubelet');
  t.true(
    kubelet?.commandLine.startsWith(
      `${RUNNER} -log-file=C:\\var\\log\\kubelet\\kubelet.log ${flags} C:\\k\\kubelet.exe `,
    ),
    kubelet?.commandLine,
  );
  t.true(services.length >= 5, services.map((s) => s.name).join(', '));
  for (const s of services) {
    t.true(s.commandLine.startsWith(`${RUNNER} -log-file=C:\\var\\log\\`), `${s.name}: ${s.commandLine}`);
    t.true(s.commandLine.includes(` ${flags} `), `${s.name}: ${s.commandLine}`);
    t.is(s.state, 'running', s.name);
  }
});
