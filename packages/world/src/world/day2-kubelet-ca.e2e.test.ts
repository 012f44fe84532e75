import test from 'ava';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { ClusterCa } from '@wmco/sim';
import {
  testWorld,
  until,
  windowsNodes,
  joinAll,
  NO_DRIFT_POLL_MS,
  WATCHED_CHANGE_WAIT_MS,
} from './world-fixture.js';

const CC = {
  group: 'machineconfiguration.openshift.io',
  version: 'v1',
  plural: 'controllerconfigs',
  name: 'machine-config-controller',
};

// No drift poll within the test: the new CA reaches the nodes through the ControllerConfig watch.
test.serial(
  'a rotated kubelet CA in ControllerConfig lands in C:\\k\\kubelet-ca.crt on every node through the watches (no drift poll)',
  async (t) => {
    const { world } = await testWorld([{ hostname: 'WIN-A' }, { hostname: 'WIN-B' }], {
      driftRepairIntervalMs: NO_DRIFT_POLL_MS,
    });
    t.teardown(() => world.stop());
    await joinAll(world);

    const kc = new KubeConfig();
    kc.loadFromFile(world.adminKubeconfig);
    const api = kc.makeApiClient(CustomObjectsApi);
    const cc = (await api.getClusterCustomObject(CC)) as { spec: Record<string, unknown> };
    const old = Buffer.from(String(cc.spec['kubeAPIServerServingCAData']), 'base64').toString();
    // A rotation publishes the new CA next to the old one, so clients of either are trusted meanwhile.
    const extra = (await ClusterCa.create('rotated-kubelet-ca')).certPem;
    const rotated = `${old.trimEnd()}\n${extra}`;
    await api.replaceClusterCustomObject({
      ...CC,
      body: {
        ...cc,
        spec: { ...cc.spec, kubeAPIServerServingCAData: Buffer.from(rotated).toString('base64') },
      },
    });
    const started = Date.now();
    await until(
      'kubelet-ca.crt rotated on every node',
      () =>
        Promise.resolve(
          world.hosts.hosts.every(
            (h) => h.sim.model.files.read('C:\\k\\kubelet-ca.crt')?.toString() === rotated,
          )
            ? true
            : undefined,
        ),
      WATCHED_CHANGE_WAIT_MS,
    );
    const ms = Date.now() - started;
    t.log(`kubelet CA on every node in ${ms} ms`);
    for (const h of world.hosts.hosts) t.is(h.sim.model.scm.get('kubelet')?.state, 'running');
    for (const n of await windowsNodes(world)) t.falsy(n.spec?.unschedulable);
  },
);
