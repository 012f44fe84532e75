import test from 'ava';
import type { SimWorld } from './sim-world.js';
import { eventsAbout, phaseIs, testWorld, until } from './world-fixture.js';
import { wmcoPlan } from './wmco-plan.test-helper.js';
import { engineTest } from './engine-test.test-helper.js';
import { hostKeyPins, type HostKeyPins } from './host-key-pins.js';

/** Every pin the operator holds, recorded or pending (ADR 0038). */
async function hostKeys(world: SimWorld): Promise<HostKeyPins> {
  return hostKeyPins(world);
}

engineTest(
  'wmco plan shows a hand-made change; drift repair puts it back; then plan shows nothing',
  async (t, engine) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }], {
      driftRepairIntervalMs: 300,
      hostEngine: engine,
    });
    t.teardown(() => world.stop());
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    const first = await world.startOperator('wmco-0');
    const a = world.hosts.hosts[0]!;
    await until('win-a Ready', phaseIs(world, a.address, 'Ready'), 90_000);
    const scm = a.sim.model.scm;
    const desired = scm.get('hybrid-overlay-node')!.commandLine;

    // Nobody repairs while the operator is down: someone edits a service's command line by hand
    // (`sc.exe config hybrid-overlay-node binPath= "... --loglevel 5"`).
    await first.stop();
    const svc = scm.get('hybrid-overlay-node')!;
    scm.configure(svc.name, { ...svc, commandLine: `${desired} --loglevel 5` });
    const kubeProxyConf = 'C:\\k\\kube-proxy.conf';
    const proxyConf = a.sim.model.files.read(kubeProxyConf)!;
    a.sim.model.files.write(kubeProxyConf, Buffer.from('marker: network-conf.ps1 has not run\n'));
    const pinsBefore = await hostKeys(world);

    const drifted = await wmcoPlan(world, '-o', 'json');
    t.is(drifted.code, 0, `${drifted.stderr}\n${drifted.stdout}`);
    const report = JSON.parse(drifted.stdout) as {
      nodes: { node: string; result: string; steps: { kind: string; description: string }[] }[];
    };
    t.is(report.nodes.length, 1);
    t.is(report.nodes[0]?.node, 'win-a');
    t.is(report.nodes[0]?.result, 'changes');
    // Exactly that service's reconfiguration, with the restarts it implies (itself and kube-proxy, which
    // depends on it, after its pre-script network-conf.ps1), and nothing else.
    t.deepEqual(
      report.nodes[0]?.steps.map((s) => s.description.replace(/^(run pre-script kube-proxy\.0): .*$/, '$1')),
      [
        'stop service kube-proxy',
        'stop service hybrid-overlay-node',
        `reconfigure service hybrid-overlay-node: ${desired} [after kubelet]`,
        'start service hybrid-overlay-node',
        'run pre-script kube-proxy.0',
        'start service kube-proxy',
      ],
    );
    t.regex(
      report.nodes[0]?.steps[4]?.description ?? '',
      /: C:\\Temp\\network-conf\.ps1 -hostnameOverride \$WmcoArg_NODE_NAME /,
    );
    t.is(scm.get('hybrid-overlay-node')?.commandLine, `${desired} --loglevel 5`, 'plan applied nothing');
    t.is(
      a.sim.model.files.read(kubeProxyConf)?.toString(),
      'marker: network-conf.ps1 has not run\n',
      'plan ran no effect-only pre-script',
    );
    t.deepEqual(await hostKeys(world), pinsBefore, 'plan pinned nothing');

    const text = await wmcoPlan(world, 'win-a');
    t.is(text.code, 0, `${text.stderr}\n${text.stdout}`);
    t.true(text.stdout.includes('win-a ('), text.stdout);
    t.true(text.stdout.includes('6 steps:'), text.stdout);
    t.true(
      text.stdout.includes('Plan: 1 node to change (6 steps), 0 unchanged, 0 not planned.'),
      text.stdout,
    );

    // The operator comes back; its drift repair restores the command line and records it.
    await world.startOperator('wmco-1');
    await until('hybrid-overlay-node restored', () =>
      Promise.resolve(scm.get('hybrid-overlay-node')?.commandLine === desired ? true : undefined),
    );
    const repaired = await until('DriftRepaired event', async () =>
      (await eventsAbout(world)).find((e) => e.reason === 'DriftRepaired'),
    );
    t.is(repaired.type, 'Normal');
    t.true(repaired.message.includes('win-a'), repaired.message);
    t.true(repaired.message.includes('reconfigure service hybrid-overlay-node'), repaired.message);
    t.deepEqual(a.sim.model.files.read(kubeProxyConf), proxyConf, 'the repair ran kube-proxy pre-script');
    t.is(scm.get('hybrid-overlay-node')?.state, 'running');
    t.is(scm.get('kube-proxy')?.state, 'running');

    // Repair is periodic, not only at start: a second hand edit while the operator runs is put back too.
    const csi = scm.get('csi-proxy')!;
    const csiCommand = csi.commandLine;
    scm.configure(csi.name, { ...csi, commandLine: `${csiCommand} --v=9` });
    await until('csi-proxy restored', () =>
      Promise.resolve(scm.get('csi-proxy')?.commandLine === csiCommand ? true : undefined),
    );

    const clean = await wmcoPlan(world);
    t.is(clean.code, 0, `${clean.stderr}\n${clean.stdout}`);
    t.true(clean.stdout.includes('no changes'), clean.stdout);
    t.true(
      clean.stdout.includes('Plan: 0 nodes to change (0 steps), 1 unchanged, 0 not planned.'),
      clean.stdout,
    );
  },
);

test.serial('wmco plan reports a changed host key and pins nothing', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-K' }], { driftRepairIntervalMs: 0 });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  const rt = await world.startOperator();
  const k = world.hosts.hosts[0]!;
  await until('win-k Ready', phaseIs(world, k.address, 'Ready'), 90_000);
  await rt.stop();
  const pinsBefore = await hostKeys(world);
  await k.sim.rotateHostKey();

  const run = await wmcoPlan(world, 'win-k', 'no-such-node', '-o', 'yaml');
  t.is(run.code, 1);
  t.regex(run.stdout, /SSH host key changed/);
  t.regex(run.stdout, /no such node/);
  t.true(run.stderr.includes('2 of 2 nodes could not be planned'), run.stderr);
  t.deepEqual(await hostKeys(world), pinsBefore, 'the new key was not pinned');
});
