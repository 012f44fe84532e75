import test from 'ava';
import { join } from 'node:path';
import { EMBEDDED_VERSION, lineLogger, startEmbeddedController } from '@wmco/embedded-controller-example';
import { apis, NS, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

// examples/embedded-controller is a controller process of its own around @wmco/core's createWmcoCore:
// its own logger, no leader election, the none provider, BYOH only. No operator runs in this world.
test('the embedded controller joins a listed BYOH host as a Ready node with its configuration, and removes it', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-E' }]);
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
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
    ['node-maintenance', 'configuration-watches', 'byoh'],
    'BYOH only, with the shared lifecycle and watches; no Machines, no ServiceMonitor',
  );
  await until('the controllers synced', () => Promise.resolve(controller.controllers.synced || undefined));

  const host = world.hosts.hosts[0]!;
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await until(`${host.address} Ready`, phaseIs(world, host.address, 'Ready'), 90_000);

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

  // Unlisted: deconfigured, and its Node deleted.
  await world.setInstances({});
  await until('win-e removed', async () => ((await windowsNodes(world)).length === 0 ? true : undefined));
  await until('no managed service left', () =>
    Promise.resolve(host.sim.model.scm.all().length === 0 ? true : undefined),
  );
  t.false(host.sim.model.files.isDirectory('C:\\k'), 'no managed file left');
});
