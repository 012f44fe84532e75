import type { SimWorld } from './sim-world.js';
import { engineTest } from './engine-test.test-helper.js';
import { hostKeyPins, pinsOfHost } from './host-key-pins.js';
import { Kubectl, ensureKubectl } from '@wmco/sim';
import { apis, eventsAbout, NS, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

/** The key pinned for a host, under its address or `address:port`: its node record's, else pending (ADR 0038). */
async function pinnedKey(world: SimWorld, address: string): Promise<string | undefined> {
  const pins = pinsOfHost(await hostKeyPins(world), address);
  return pins.recorded[0] ?? pins.pending[0];
}

// Three hosts, as the issue says: one listed by IPv4, one by a DNS name, one with PowerShell as default shell.
const HOSTS = [
  { hostname: 'WIN-A' },
  { hostname: 'WIN-B', dnsName: 'win-b.sim.internal' },
  { hostname: 'WIN-C', defaultShell: 'powershell' as const },
];

engineTest('three BYOH hosts become Ready nodes, and one comes back out and in again', async (t, engine) => {
  const { world, logs } = await testWorld(HOSTS, { hostEngine: engine });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
  await world.startOperator();
  const addresses = world.hosts.hosts.map((h) => h.address);
  for (const a of addresses) await until(`${a} Ready`, phaseIs(world, a, 'Ready'), 90_000);

  const nodes = await windowsNodes(world);
  t.deepEqual(nodes.map((n) => n.metadata?.name).sort(), ['win-a', 'win-b', 'win-c']);
  for (const n of nodes) {
    t.is(n.metadata?.labels?.['windowsmachineconfig.openshift.io/byoh'], 'true');
    t.is(n.metadata?.labels?.['node-role.kubernetes.io/worker'], '');
    const a = n.metadata?.annotations ?? {};
    t.is(a['windowsmachineconfig.openshift.io/version'], '0.1.0');
    t.regex(a['windowsmachineconfig.openshift.io/pub-key-hash'] ?? '', /^[0-9a-f]{64}$/);
    t.regex(a['windowsmachineconfig.openshift.io/username'] ?? '', /^wmco1:/);
    t.truthy(a['windowsmachineconfig.openshift.io/ssh-host-key']);
    t.deepEqual(
      n.spec?.taints?.map((x) => `${x.key}=${x.value}:${x.effect}`),
      ['os=Windows:NoSchedule'],
    );
    t.falsy(n.spec?.unschedulable, 'uncordoned after the join');
  }
  for (const h of world.hosts.hosts) {
    const running = h.sim.model.scm
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
  }
  // What a cluster admin sees with the real kubectl.
  const missing = ensureKubectl();
  if (missing) t.fail(missing);
  const got = await new Kubectl(world.adminKubeconfig).run([
    'get',
    'nodes',
    '-l',
    'kubernetes.io/os=windows',
  ]);
  t.is(got.code, 0, got.stderr);
  for (const name of ['win-a', 'win-b', 'win-c'])
    t.regex(got.stdout, new RegExp(`^${name}\\s+Ready\\s`, 'm'));
  const cms = await apis(world).core.readNamespacedConfigMap({
    name: 'windows-services-0.1.0',
    namespace: NS,
  });
  t.true(cms.immutable);

  // Remove the DNS-named host: it is deconfigured and its Node deleted; the others stay.
  const b = world.hosts.hosts[1]!;
  const pinned = await pinnedKey(world, b.address);
  t.truthy(pinned, 'the host key is pinned on first use');
  const home = pinsOfHost(await hostKeyPins(world), b.address);
  t.deepEqual([home.recorded, home.pending], [[pinned], []], 'the pin lives in the node record alone');
  const entries = Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i)));
  delete entries[world.hosts.key(1)];
  await world.setInstances(entries);
  await until('win-b removed', async () =>
    (await windowsNodes(world)).some((n) => n.metadata?.name === 'win-b') ? undefined : true,
  );
  t.deepEqual(
    b.sim.model.scm.all().map((s) => s.name),
    [],
    'no managed service left',
  );
  t.false(b.sim.model.files.isDirectory('C:\\k'), 'no managed file left');
  t.deepEqual(b.sim.model.hnsNetworks, [], 'no HNS network left');
  // The removed entry's pin is forgotten once its removal is done (a reinstalled host may come back).
  await until('win-b’s host key pin forgotten', async () =>
    (await pinnedKey(world, b.address)) === undefined ? true : undefined,
  );

  // Re-adding it joins it again: a first use again, pinning the same host's same key.
  await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
  await until('win-b Ready again', phaseIs(world, b.address, 'Ready'), 90_000);
  const again = await pinnedKey(world, b.address);
  t.is(again, pinned);

  // No secret in any log line or event.
  const events = JSON.stringify(await eventsAbout(world));
  const keyBody = world.privateKey.split('\n')[1] ?? 'x';
  for (const text of [logs.join('\n'), events]) {
    t.false(text.includes(keyBody), 'private key never logged');
    t.false(text.includes(world.cluster.bootstrapToken), 'bootstrap token never logged');
    t.false(text.includes(world.cluster.nodeBootstrapperToken), 'node-bootstrapper token never logged');
  }
});
