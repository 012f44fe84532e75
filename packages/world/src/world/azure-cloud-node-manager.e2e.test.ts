// OCPBUGS-36671: Azure's cloud node manager runs with a ServiceAccount of its own, not with the node's
// kubelet identity. With `--cloud-provider=external` the kubelet registers its Node with the
// `node.cloudprovider.kubernetes.io/uninitialized` taint, and only the cloud node manager removes it;
// NodeRestriction refuses a node identity that changes its own taints, so with the node's kubeconfig the
// taint stays for good. RBAC is enforced, with exactly the grants of deploy/ (the operator's and the cloud
// node manager's).
import test from 'ava';
import { KubeConfig, CoreV1Api } from '@kubernetes/client-node';
import { cloudNodeManagerLastError } from '@wmco/sim';
import { applyAsAdmin, deployRbac } from './rbac-world.js';
import { phaseIs, testWorld, until } from './world-fixture.js';

const TAINT = 'node.cloudprovider.kubernetes.io/uninitialized';
const KUBECONFIG = 'C:\\k\\cloud-node-manager-kubeconfig';

test.serial(
  'Azure: the cloud node manager removes the uninitialized taint with its own ServiceAccount, not the node’s identity',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-CNM' }], {
      platform: 'Azure',
      cloud: true,
      cloudProvider: 'external',
      rbac: true,
    });
    t.teardown(() => world.stop());
    await applyAsAdmin(world, await deployRbac());
    const host = world.hosts.hosts[0]!;
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    await until(`${host.address} Ready`, phaseIs(world, host.address, 'Ready'), 90_000);

    const cnm = host.sim.model.scm.all().find((s) => s.name === 'cloud-node-manager');
    t.truthy(cnm, 'the cloud-node-manager service is installed');
    t.true(cnm!.commandLine.includes(`--kubeconfig=${KUBECONFIG}`), cnm!.commandLine);
    t.false(cnm!.commandLine.includes('--kubeconfig=C:\\k\\kubeconfig'));

    // The kubeconfig on the host is the ServiceAccount's: the API server says who it is.
    const kc = new KubeConfig();
    kc.loadFromString(host.sim.model.files.read(KUBECONFIG)?.toString() ?? '');
    const user = kc.getCurrentUser();
    t.truthy(user?.token, 'a bearer token');
    t.like(world.cluster.server.authn.lookupToken(user?.token ?? ''), {
      name: 'system:serviceaccount:openshift-windows-machine-config-operator:windows-cloud-node-manager',
    });

    // The cloud node manager initialises the Node: the uninitialized taint goes.
    const admin = new KubeConfig();
    admin.loadFromFile(world.adminKubeconfig);
    const core = admin.makeApiClient(CoreV1Api);
    try {
      await until('the uninitialized taint removed', async () => {
        const node = await core.readNode({ name: 'win-cnm' });
        return (node.spec?.taints ?? []).some((x) => x.key === TAINT) ? undefined : node;
      });
    } catch (err) {
      t.log(`cloud node manager's last error: ${cloudNodeManagerLastError(host.sim.model) ?? '(none)'}`);
      throw err;
    }
    t.is(cloudNodeManagerLastError(host.sim.model), undefined, 'no request was refused');
  },
);
