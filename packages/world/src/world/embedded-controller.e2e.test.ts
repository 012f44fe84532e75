import test from 'ava';
import { join } from 'node:path';
import { EMBEDDED_VERSION, lineLogger, startEmbeddedController } from '@wmco/embedded-controller-example';
import { applyWindowsHostCrd, WorldWindowsHosts } from './windows-host-fixture.js';
import { apis, NS, testWorld, until, windowsNodes } from './world-fixture.js';

// examples/embedded-controller is a controller process of its own around @wmco/core's createWmcoCore:
// its own logger, no leader election, the none provider, its hosts listed by WindowsHost custom
// resources (its own instance source). No operator runs in this world.
test('the embedded controller joins a WindowsHost as a Ready node with its configuration, writes its status, and removes it', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-E' }]);
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await applyWindowsHostCrd(world);
  const windowsHosts = new WorldWindowsHosts(world, NS);
  const lines: string[] = [];
  const controller = await startEmbeddedController({
    kubeconfig: join(world.dir, 'operator.kubeconfig'),
    namespace: NS,
    payloadDir: world.payloadDir,
    logger: lineLogger({ level: 'debug', write: (l) => lines.push(l) }),
    simulation: {
      hooks: {
        sshOverrides: (address) => world.hosts.sshOverrides(address),
        resolver: world.resolver,
        timings: { nodeRegistrationMs: 60_000, nodeReadyMs: 60_000, pollMs: 100, keyRetryMs: 500 },
      },
      driftRepairIntervalMs: 1000,
    },
  });
  // Registered after the world's: ava runs teardowns last-in first-out, so the controller stops first.
  t.teardown(() => controller.stop());
  t.deepEqual(
    controller.controllers.runnables.map((r) => r.name),
    ['node-maintenance', 'configuration-watches', 'source/windows-hosts'],
    'its own source only, with the shared lifecycle and watches; no windows-instances, no Machines, no ServiceMonitor',
  );
  await until('the controllers synced', () => Promise.resolve(controller.controllers.synced || undefined));

  const host = world.hosts.hosts[0]!;
  await windowsHosts.create('win-e', host.address);
  const status = await until('WindowsHost win-e Ready', windowsHosts.phaseIs('win-e', 'Ready'), 90_000);
  t.is(status.nodeName, 'win-e', 'the status names the node');
  t.is(status.lastError ?? '', '');
  t.is((await world.status(host.address))?.phase, 'Ready', 'the shared lifecycle keeps its own status too');

  const [node] = await windowsNodes(world);
  t.is(node?.metadata?.name, 'win-e');
  t.is(node?.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
  const a = node?.metadata?.annotations ?? {};
  t.is(
    a['windowsmachineconfig.openshift.io/version'],
    EMBEDDED_VERSION,
    'annotated with the embedder’s version',
  );
  t.regex(a['windowsmachineconfig.openshift.io/pub-key-hash'] ?? '', /^[0-9a-f]{64}$/);
  t.is(node?.metadata?.labels?.['windowsmachineconfig.openshift.io/byoh'], 'true');
  t.deepEqual(
    node?.spec?.taints?.map((x) => `${x.key}=${x.value}:${x.effect}`),
    ['os=Windows:NoSchedule'],
  );
  const running = host.sim.model.scm
    .all()
    .filter((s) => s.state === 'running')
    .map((s) => s.name)
    .sort();
  t.deepEqual(running, [
    'containerd',
    'csi-proxy',
    'hybrid-overlay-node',
    'kube-proxy',
    'kubelet',
    'windows_exporter',
  ]);
  // The shared lifecycle published this version's services ConfigMap before configuring the node.
  const services = await apis(world).core.readNamespacedConfigMap({
    name: `windows-services-${EMBEDDED_VERSION}`,
    namespace: NS,
  });
  t.true(services.immutable);
  t.true(
    lines.some((l) => l.includes('embedded controllers started')),
    'the embedder’s own logger',
  );

  // A second WindowsHost of the same address is not listed, and says which one lists it.
  await windowsHosts.create('win-e-copy', host.address);
  const copy = await until('the copy refused', windowsHosts.phaseIs('win-e-copy', 'Failed'));
  t.regex(copy.lastError ?? '', /already listed by WindowsHost win-e/);
  t.is((await windowsHosts.get('win-e'))?.status?.phase, 'Ready');
  await windowsHosts.delete('win-e-copy');

  // Deleted: deconfigured, and its Node deleted.
  await windowsHosts.delete('win-e');
  await until('win-e removed', async () => ((await windowsNodes(world)).length === 0 ? true : undefined));
  await until('no managed service left', () =>
    Promise.resolve(host.sim.model.scm.all().length === 0 ? true : undefined),
  );
  t.false(host.sim.model.files.isDirectory('C:\\k'), 'no managed file left');
});
