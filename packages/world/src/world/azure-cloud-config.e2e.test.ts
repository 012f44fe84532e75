// Issue 29, item 6: `--cloud-config` of the Linux workers' kubelet, read from the rendered worker
// MachineConfig, reaches a Windows node end to end on Azure (upstream's parseKubeletArgs vector:
// `--cloud-provider=azure --cloud-config=/etc/kubernetes/cloud.conf`): the file is copied to C:\k under
// its own name and the kubelet runs with `--cloud-config=C:\k\cloud.conf`.
import test from 'ava';
import { CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { phaseIs, testWorld, until } from './world-fixture.js';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const MC = { group: 'machineconfiguration.openshift.io', version: 'v1', plural: 'machineconfigs' };

/** Azure's cloud provider config as OpenShift renders it for the workers (no secret: managed identity). */
const CLOUD_CONF = `${JSON.stringify(
  {
    cloud: 'AzurePublicCloud',
    tenantId: '00000000-0000-0000-0000-000000000001',
    subscriptionId: '00000000-0000-0000-0000-000000000002',
    resourceGroup: 'sim-rg',
    location: 'eastus',
    vnetName: 'sim-vnet',
    subnetName: 'sim-worker-subnet',
    useManagedIdentityExtension: true,
  },
  undefined,
  2,
)}\n`;

type Obj = Record<string, unknown>;

/** Adds `--cloud-config` and its file to the rendered worker MachineConfig, as an Azure cluster has them. */
async function addCloudConfig(adminKubeconfig: string): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(adminKubeconfig);
  const api = kc.makeApiClient(CustomObjectsApi);
  const list = (await api.listClusterCustomObject(MC)) as { items: Obj[] };
  const rendered = list.items.find((mc) =>
    String((mc['metadata'] as Obj)['name']).startsWith('rendered-worker-'),
  );
  if (!rendered) throw new Error('no rendered worker MachineConfig');
  const config = (rendered['spec'] as Obj)['config'] as Obj & {
    storage: { files: Obj[] };
    systemd: { units: Obj[] };
  };
  const file = {
    path: '/etc/kubernetes/cloud.conf',
    mode: 420,
    contents: {
      source: `data:text/plain;charset=utf-8;base64,${Buffer.from(CLOUD_CONF).toString('base64')}`,
    },
  };
  const units = config.systemd.units.map((u) =>
    u['name'] === 'kubelet.service'
      ? {
          ...u,
          contents: String(u['contents']).replace(
            '    --v=2',
            '    --cloud-config=/etc/kubernetes/cloud.conf \\\n    --v=2',
          ),
        }
      : u,
  );
  const body = {
    spec: {
      config: {
        ...config,
        storage: { ...config.storage, files: [...config.storage.files, file] },
        systemd: { ...config.systemd, units },
      },
    },
  };
  const name = String((rendered['metadata'] as Obj)['name']);
  await api.patchClusterCustomObject({ ...MC, name, body }, mergePatch);
}

test('Azure: the workers’ --cloud-config file reaches the Windows kubelet’s arguments and C:\\k', async (t) => {
  const { world } = await testWorld([{ hostname: 'WIN-AZ' }], {
    platform: 'Azure',
    cloud: true,
    cloudProvider: 'azure',
  });
  t.teardown(() => world.stop());
  await addCloudConfig(world.adminKubeconfig);
  const host = world.hosts.hosts[0]!;
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  await until(`${host.address} Ready`, phaseIs(world, host.address, 'Ready'), 90_000);

  const kubelet = host.sim.model.scm.all().find((s) => s.name === 'kubelet')?.commandLine ?? '';
  const args = kubelet.split(/\s+/);
  t.true(args.includes('--cloud-config=C:\\k\\cloud.conf'), kubelet);
  t.true(args.includes('--cloud-provider=azure'), kubelet);
  t.is(host.sim.model.files.read('C:\\k\\cloud.conf')?.toString(), CLOUD_CONF);
});
