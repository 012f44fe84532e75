import test from 'ava';
import { CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { StartupError } from '@wmco/operator';
import { testWorld } from './world-fixture.js';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

async function patchNetwork(
  adminKubeconfig: string,
  group: string,
  body: object,
  status = false,
): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(adminKubeconfig);
  const api = kc.makeApiClient(CustomObjectsApi);
  const target = { group, version: 'v1', plural: 'networks', name: 'cluster', body };
  if (status) await api.patchClusterCustomObjectStatus(target, mergePatch);
  else await api.patchClusterCustomObject(target, mergePatch);
}

test.serial(
  'the operator refuses to start on a cluster without OVN-Kubernetes, with a clear message',
  async (t) => {
    const { world } = await testWorld([]);
    t.teardown(() => world.stop());
    await patchNetwork(world.adminKubeconfig, 'config.openshift.io', {
      spec: { networkType: 'OpenShiftSDN' },
    });
    await patchNetwork(
      world.adminKubeconfig,
      'config.openshift.io',
      { status: { networkType: 'OpenShiftSDN' } },
      true,
    );
    const err = await t.throwsAsync(world.startOperator(), { instanceOf: StartupError });
    t.regex(err.message, /the cluster is not supported: .*network type not supported/);
  },
);

test.serial('the operator refuses to start without hybrid overlay networking', async (t) => {
  const { world } = await testWorld([]);
  t.teardown(() => world.stop());
  await patchNetwork(world.adminKubeconfig, 'operator.openshift.io', {
    spec: { defaultNetwork: { ovnKubernetesConfig: { hybridOverlayConfig: null } } },
  });
  const err = await t.throwsAsync(world.startOperator(), { instanceOf: StartupError });
  t.regex(err.message, /not configured for OVN hybrid networking/);
});
