// A Machine's instance is the cluster's: the installer's machine-api tags it `owned`, and a join under
// `--cloud-tagging apply` (which gives BYOH instances `shared`) leaves that value and records nothing to
// take back (issue 27).
import test from 'ava';
import { machineNodes, settled } from './machine-wait.js';
import { testWorld } from './world-fixture.js';

for (const platform of ['AWS', 'GCP']) {
  test.serial(
    `${platform}: --cloud-tagging apply keeps a Machine's instance owned, and records no tag`,
    async (t) => {
      const { world } = await testWorld([], { platform, cloud: true, cloudTagging: 'apply' });
      t.teardown(() => world.stop());
      // openshift-cluster-api is seeded by the simulated cluster: the user data is copied there too.
      await world.createPrivateKeySecret();
      await world.startOperator();
      await world.machineApi().createMachineSet({ name: 'win', replicas: 1, platform });
      const [m] = await settled(world, 'win', 1);
      const tags = world.cloud?.instance(m?.spec?.providerID ?? '')?.tags ?? {};
      const own = Object.entries(tags).filter(([k]) => k.includes(world.cluster.infrastructureName));
      t.deepEqual(
        own.map(([, v]) => v),
        ['owned'],
        'not re-tagged shared',
      );
      const node = (await machineNodes(world)).find((n) => n.metadata?.name === m?.status?.nodeRef?.name);
      t.truthy(node?.metadata?.annotations?.['windowsmachineconfig.openshift.io/cloud-instance-id']);
      t.is(node?.metadata?.annotations?.['windowsmachineconfig.openshift.io/cloud-applied-tags'], undefined);
    },
  );
}
