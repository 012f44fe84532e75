import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import {
  approvedClientCsrsFor,
  CLIENT,
  csrApiWithToken,
  NODE_BOOTSTRAPPER,
  submitCsr,
} from './identity-csrs.js';
import { apis, eventsAbout, phaseIs, testWorld, until } from './world-fixture.js';

/** What must not change on a Node another instance (or nobody) owns. */
function footprint(n: V1Node): unknown {
  const { annotations = {}, labels = {} } = n.metadata ?? {};
  return { labels, annotations, taints: n.spec?.taints ?? [], unschedulable: n.spec?.unschedulable };
}

test.serial(
  'a host reporting a Linux node name or another instance name is refused; the good hosts still join',
  async (t) => {
    const { world } = await testWorld([
      { hostname: 'WIN-GOOD' },
      { hostname: 'worker-0' }, // the name of a Linux worker
      { hostname: ' Win-Good ' }, // another instance's name, in other case and with spaces
      { hostname: 'WIN-GOOD2' },
    ]);
    t.teardown(() => world.stop());
    const [good, linux, copy, good2] = world.hosts.hosts.map((h) => h.address) as [
      string,
      string,
      string,
      string,
    ];
    await world.createPrivateKeySecret();
    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await world.startOperator();
    await until('win-good Ready', phaseIs(world, good, 'Ready'), 90_000);
    const { core } = apis(world);
    const before = {
      worker: footprint(await core.readNode({ name: 'worker-0' })),
      good: footprint(await core.readNode({ name: 'win-good' })),
    };

    await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
    const linuxFailed = await until('the Linux name refused', phaseIs(world, linux, 'Failed'), 90_000);
    t.regex(
      linuxFailed.lastError ?? '',
      /reports node name worker-0, taken by an existing Node the operator has no record of joining/,
    );
    const copyFailed = await until('the copied name refused', phaseIs(world, copy, 'Failed'), 90_000);
    t.regex(
      copyFailed.lastError ?? '',
      new RegExp(`node name win-good, taken by an existing Node of instance ${good.replaceAll('.', '\\.')}`),
    );
    await until('win-good2 Ready', phaseIs(world, good2, 'Ready'), 90_000);

    const events = await eventsAbout(world);
    for (const [address, text] of [
      [linux, 'worker-0, taken by an existing Node the operator has no record of joining'],
      [copy, 'win-good, taken by an existing Node of instance'],
    ] as const) {
      t.true(
        events.some((e) => e.type === 'Warning' && e.message.includes(address) && e.message.includes(text)),
        `a clear event for ${address}`,
      );
    }
    // Nothing changed on either Node, nothing ran on the hostile hosts, and no CSR got approved for them.
    t.deepEqual(footprint(await core.readNode({ name: 'worker-0' })), before.worker);
    t.deepEqual(footprint(await core.readNode({ name: 'win-good' })), before.good);
    for (const i of [1, 2]) {
      const scm = world.hosts.hosts[i]!.sim.model.scm;
      t.false(
        scm.all().some((s) => s.name === 'kubelet'),
        `no kubelet service on host ${i}`,
      );
    }
    t.is((await approvedClientCsrsFor(world, 'worker-0')).length, 0);
    const goodCsrs = await approvedClientCsrsFor(world, 'win-good');
    t.is(goodCsrs.length, 1, 'one client certificate for win-good: its own kubelet');
    // BYOH joins go through OpenShift's node-bootstrapper service-account token.
    t.is(goodCsrs[0]?.spec.username, NODE_BOOTSTRAPPER);
    t.deepEqual([...(goodCsrs[0]?.spec.groups ?? [])].sort(), [
      'system:authenticated',
      'system:serviceaccounts',
      'system:serviceaccounts:openshift-machine-config-operator',
    ]);
    // A Linux node name sent by hand with the node-bootstrapper token is not approved either.
    await submitCsr(
      csrApiWithToken(world, world.cluster.nodeBootstrapperToken),
      'hand-worker-0',
      { commonName: 'system:node:worker-0', organizations: ['system:nodes'] },
      CLIENT,
    );
    await new Promise((r) => setTimeout(r, 1500));
    t.is((await approvedClientCsrsFor(world, 'worker-0')).length, 0);
  },
);
