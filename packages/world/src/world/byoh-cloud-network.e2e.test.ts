// Cloud identity bound to the cluster's network (issue 27): a BYOH entry whose address only another
// network's instance has (overlapping private ranges: another cluster's VPC, a peered network) is refused
// and that instance left untouched; an instance in the cluster's network is tagged shared by default and
// owned only when asked.
import test from 'ava';
import { eventsAbout, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';

const CASES = [
  { platform: 'AWS', tagging: 'apply', value: 'shared' },
  { platform: 'GCP', tagging: 'apply-owned', value: 'owned' },
  { platform: 'Azure', tagging: 'apply', value: 'shared' },
] as const;

for (const c of CASES) {
  test.serial(
    `${c.platform}: an instance in another network with the host's IP is refused and untouched; ` +
      `the cluster network's host is tagged ${c.value} (--cloud-tagging ${c.tagging})`,
    async (t) => {
      const { world } = await testWorld(
        [{ hostname: 'WIN-N1' }, { hostname: 'WIN-N2', cloudNetwork: 'peer' }],
        { platform: c.platform, cloud: true, cloudTagging: c.tagging },
      );
      t.teardown(() => world.stop());
      const cloud = world.cloud!;
      const ours = (key: string): boolean => key.includes(world.cluster.infrastructureName);
      const [good, bad] = world.hosts.hosts;
      if (!good || !bad) return t.fail('two hosts');
      await world.createPrivateKeySecret();
      await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
      await world.startOperator();

      await until('the cluster network host Ready', phaseIs(world, good.address, 'Ready'), 90_000);
      const failed = await until(
        'the other network host refused',
        phaseIs(world, bad.address, 'Failed'),
        90_000,
      );
      const [peer] = cloud.instancesAt(bad.address);
      const clusterNetwork = cloud.instancesAt('10.0.0.10')[0]?.network ?? '?';
      if (!peer) return t.fail('no instance behind the refused host');
      t.not(peer.network, clusterNetwork);
      t.regex(failed.lastError ?? '', /is in network .*, not the cluster's network/);
      const refusal = (await eventsAbout(world)).find((e) => e.reason === 'CloudInstanceOutsideNetwork');
      t.is(refusal?.type, 'Warning');
      const message = refusal?.message.toLowerCase() ?? '';
      for (const part of [bad.address, peer.id, peer.network, clusterNetwork])
        t.true(message.includes(part.toLowerCase()), `the event names ${part}: ${message}`);

      t.deepEqual(Object.keys(peer.tags).filter(ours), [], 'the other network’s instance is not tagged');
      t.false(
        bad.sim.model.scm.all().some((s) => s.name === 'kubelet' && s.state === 'running'),
        'no node joins as the other network’s instance',
      );
      t.is((await windowsNodes(world)).length, 1);
      const [mine] = cloud.instancesAt(good.address);
      const tag = Object.entries(mine?.tags ?? {}).filter(([k]) => ours(k));
      t.is(tag.length, 1);
      t.is(tag[0]?.[1], c.value);
    },
  );
}
