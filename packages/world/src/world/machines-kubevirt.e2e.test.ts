// A third-party platform end to end (issue 29 item 7): the example KubeVirt provider, loaded as a provider
// package the way `--provider-package` loads it, joins a Windows VM on OpenShift Virtualization. The
// MachineSet's Machine becomes a kubevirt.io/v1 VirtualMachine and VirtualMachineInstance on the simulated
// API server; the VMI reports the guest's address in status.interfaces[].ipAddress, the Machine's
// addresses are read from it, and cloudbase-init in the guest runs the user data the provider wrapped
// (`#ps1_sysnative`). Without the provider no user data is written, sshd never starts, and nothing joins.
import test from 'ava';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { loadBuiltinProviders, loadProviders } from '@wmco/operator';
import { isReady, machineNodes, settled } from './machine-wait.js';
import { apis, testWorld } from './world-fixture.js';

interface VmiView {
  metadata: { name: string; ownerReferences?: { kind: string; name: string }[] };
  status?: { phase?: string; interfaces?: { ipAddress?: string; ipAddresses?: string[] }[] };
}

test('KubeVirt: the example provider package joins a Windows VirtualMachine, Ready, addressed from its VMI', async (t) => {
  const providers = await loadProviders(await loadBuiltinProviders(), ['@wmco/provider-kubevirt-example']);
  t.true(
    providers.some((p) => p.platforms.includes('KubeVirt')),
    'the KubeVirt provider is loaded from its package',
  );
  const { world } = await testWorld([], { platform: 'KubeVirt', providers });
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.startOperator();
  await world.machineApi().createMachineSet({ name: 'win', replicas: 1, platform: 'KubeVirt' });
  const [m] = await settled(world, 'win', 1);

  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const vmi = (await kc.makeApiClient(CustomObjectsApi).getNamespacedCustomObject({
    group: 'kubevirt.io',
    version: 'v1',
    namespace: 'openshift-machine-api',
    plural: 'virtualmachineinstances',
    name: m?.metadata.name ?? '',
  })) as VmiView;
  const vmiAddress = vmi.status?.interfaces?.[0]?.ipAddress ?? '';
  t.is(vmi.status?.phase, 'Running');
  t.is(vmi.metadata.ownerReferences?.[0]?.kind, 'VirtualMachine', 'the VMI belongs to its VirtualMachine');
  t.not(vmiAddress, '');
  t.is(m?.spec?.providerID, `kubevirt://openshift-machine-api/${m?.metadata.name ?? ''}`);
  t.is(
    m?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address,
    vmiAddress,
    "the Machine's address is the VMI's",
  );

  const node = (await machineNodes(world)).find((n) => n.metadata?.name === m?.status?.nodeRef?.name);
  t.truthy(node && isReady(node), 'the VM joined as a Ready node');
  t.true(
    node?.status?.addresses?.some((a) => a.type === 'InternalIP' && a.address === vmiAddress) ?? false,
    "the node's InternalIP is the VMI's address",
  );
  // No HostnameOverride or HostRename: cloudbase-init named the computer after the VMI, the kubelet uses it.
  t.is(node?.metadata?.name, m?.metadata.name);

  const secret = await apis(world).core.readNamespacedSecret({
    name: 'windows-user-data',
    namespace: 'openshift-machine-api',
  });
  const userData = Buffer.from(secret.data?.['userData'] ?? '', 'base64').toString('utf8');
  t.true(userData.startsWith('#ps1_sysnative\n'), "the user data in the provider's cloudbase-init format");
  const host = world.machineHost(vmiAddress);
  t.truthy(host, 'the simulated Windows host behind the VMI');
  const running =
    host?.model.scm
      .all()
      .filter((s) => s.state === 'running')
      .map((s) => s.name) ?? [];
  t.true(running.includes('kubelet') && running.includes('kube-proxy'), running.join(','));
  // The platform has no cloud node manager and no metadata service: none is installed, no route added.
  t.false(running.includes('cloud-node-manager'));
  t.false(host?.model.routes.some((r) => r.destinationPrefix === '169.254.169.254/32') ?? true);
});
