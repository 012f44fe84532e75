import test from 'ava';
import { KubeConfig } from '@kubernetes/client-node';
import { cloudCapabilities } from '../clouds/cloud-capabilities.test-helper.js';
import { kubeCloudContext, loadBuiltinProviders } from '@wmco/operator';
import { nodeAttacker } from './node-attacker.js';
import { mismatchReported } from './hostile-node-scenario.js';
import type { SimWorld } from './sim-world.js';
import { apis, joinAll, testWorld, until } from './world-fixture.js';

/** The tags of the instance behind `address`, read back through the AWS SDK. */
async function tagsOf(world: SimWorld, address: string): Promise<Readonly<Record<string, string>>> {
  const provider = (await loadBuiltinProviders()).find((p) => p.platforms.includes('AWS'));
  if (!provider) throw new Error('no AWS provider');
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const { identity } = cloudCapabilities(provider, await kubeCloudContext(kc));
  const instance = await identity.identify(address);
  if (!instance) throw new Error(`no instance at ${address}`);
  return instance.tags;
}

test.serial(
  'AWS: a node that lists another instance’s tags and address as its own never gets them removed',
  async (t) => {
    const { world } = await testWorld(
      [{ hostname: 'WIN-V', dnsName: 'win-v.sim.internal' }, { hostname: 'WIN-X' }],
      {
        platform: 'AWS',
        cloud: true,
        cloudTagging: 'apply',
        cloudProvider: 'external',
        driftRepairIntervalMs: 0,
      },
    );
    t.teardown(() => world.stop());
    await joinAll(world);
    const [victim, attackerHost] = world.hosts.hosts;
    if (!victim || !attackerHost) return t.fail('two hosts');
    const attackerNode = (await world.status(attackerHost.address))?.node ?? '';
    const victimTags = await tagsOf(world, victim.address);
    t.true(
      Object.values(victimTags).includes('shared'),
      'the operator tagged the victim at its join (shared: ADR 0033)',
    );
    const connections = victim.sim.stats.connectionsAccepted;

    const listed = Object.entries(victimTags).map(([key, value]) => ({ key, value }));
    await (
      await nodeAttacker(world, attackerNode, 1)
    ).forge({
      owner: 'no-such-host.sim.internal',
      internalIp: victim.address,
      annotations: { 'windowsmachineconfig.openshift.io/cloud-applied-tags': JSON.stringify(listed) },
    });
    const message = await mismatchReported(world, attackerNode, /cloud-applied-tags/);
    t.regex(message, new RegExp(`InternalIP is ${victim.address}`));

    await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
    await mismatchReported(world, attackerNode, /Node object is deleted/);
    await until(`${attackerNode} deleted`, async () =>
      (await apis(world).core.listNode()).items.some((n) => n.metadata?.name === attackerNode)
        ? undefined
        : true,
    );
    t.deepEqual(await tagsOf(world, victim.address), victimTags, 'the victim keeps every tag');
    t.is(victim.sim.stats.connectionsAccepted, connections, 'no SSH connection to the victim');
    t.true(victim.sim.model.files.isDirectory('C:\\k'), 'the victim is not deconfigured');
  },
);
