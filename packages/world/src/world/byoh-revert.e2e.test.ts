import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { ClusterCa, MANAGED_CERTIFICATE_NAME, OPERATOR_NAMESPACE } from '@wmco/sim';
import type { SimWorld } from './sim-world.js';
import { engineTest } from './engine-test.test-helper.js';
import { hostSnapshot } from './host-snapshot.js';
import { apis, eventsAbout, phaseIs, testWorld, until } from './world-fixture.js';

// Issue 29 item 3: a removal gives the host back as it was before the join, including what the operator
// added beyond upstream's deconfigure list (the Root certificates it imported, with the restart a changed
// Root store needs, and its firewall rules), and leaves alone what an admin had put there.

const PROXY = { group: 'config.openshift.io', version: 'v1', plural: 'proxies', name: 'cluster' };

async function setProxy(world: SimWorld, bundle: string): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const proxy = (await custom.getClusterCustomObject(PROXY)) as Record<string, unknown>;
  await custom.replaceClusterCustomObjectStatus({
    ...PROXY,
    body: { ...proxy, status: { httpsProxy: 'http://proxy.example.com:3129' } },
  });
  const { core } = apis(world);
  const cm = await until(
    'trusted-ca created',
    () =>
      core
        .readNamespacedConfigMap({ name: 'trusted-ca', namespace: OPERATOR_NAMESPACE })
        .catch(() => undefined),
    20_000,
  );
  // What the cluster network operator does to the labelled ConfigMap.
  await core.replaceNamespacedConfigMap({
    name: 'trusted-ca',
    namespace: OPERATOR_NAMESPACE,
    body: { ...cm, data: { 'ca-bundle.crt': bundle } },
  });
}

engineTest('a removed BYOH host holds exactly what it held before the join', async (t, engine) => {
  const { world, logs } = await testWorld([{ hostname: 'WIN-A' }], {
    hostEngine: engine,
    keepLogsOnRemoval: false,
  });
  t.teardown(() => world.stop());
  const host = world.hosts.hosts[0]!;
  const m = host.sim.model;
  // What an admin had on the host before: a root, two firewall rules (one with a name the operator uses,
  // same settings), a machine variable.
  m.rootStore.add((await ClusterCa.create('admin-root')).certPem, 'admin');
  m.firewallRules.push(
    { name: 'AdminRule', protocol: 'TCP', localPort: 8443, direction: 'Inbound', description: 'admin' },
    { name: 'WindowsExporter', protocol: 'TCP', localPort: 9182, direction: 'Inbound', description: '' },
  );
  m.envVars.set('admin_var', { name: 'ADMIN_VAR', value: 'kept' });
  const before = hostSnapshot(m);

  await world.createPrivateKeySecret();
  await world.startOperator();
  // The PowerShell engine cannot add to a Root store (Linux .NET's LocalMachine stores are read-only;
  // FIDELITY.md): there the proxy CA is put in the store with the operator's mark, as the import would.
  const proxyCa = (await ClusterCa.create('proxy-ca')).certPem;
  if (engine === 'model') await setProxy(world, proxyCa);
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await until('Ready', phaseIs(world, host.address, 'Ready'), 180_000).catch((err: unknown) => {
    t.log(logs.filter((l) => l.includes('"warn"') || l.includes('"error"')).join('\n'));
    throw err;
  });
  if (engine === 'powershell') m.rootStore.add(proxyCa, MANAGED_CERTIFICATE_NAME);
  await until(
    'the proxy CA imported',
    () =>
      Promise.resolve(
        m.rootStore.thumbprints().some((x) => m.rootStore.get(x)?.friendlyName === MANAGED_CERTIFICATE_NAME)
          ? true
          : undefined,
      ),
    120_000,
  );
  const joined = hostSnapshot(m);
  t.true(joined.firewallRules.includes('ContainerLogsPort TCP/10250 Inbound OpenShift managed'));
  t.true(
    joined.firewallRules.includes('WindowsExporter TCP/9182 Inbound '),
    'the admin’s rule was left as it was',
  );
  const bootBefore = m.lastBootTime.getTime();

  await world.setInstances({});
  await until(
    'InstanceTeardown',
    async () => ((await eventsAbout(world)).some((e) => e.reason === 'InstanceTeardown') ? true : undefined),
    300_000,
  ).catch((err: unknown) => {
    t.log(logs.filter((l) => l.includes('"warn"') || l.includes('"error"')).join('\n'));
    throw err;
  });
  // The module schedules the restart a moment after its answer: it is seen, not assumed.
  await until(
    'restarted: the Root store changed',
    () => Promise.resolve(m.lastBootTime.getTime() !== bootBefore ? true : undefined),
    60_000,
  );
  // Not reverted, as upstream: the Defender exclusion of containerd (Remove-MpPreference is not in the
  // Windows PowerShell 5.1 command profile the module is checked against).
  const after = hostSnapshot(m);
  t.deepEqual(after.defenderExclusions, ['C:\\k\\containerd\\containerd.exe']);
  t.deepEqual({ ...after, defenderExclusions: [] }, before);
});
