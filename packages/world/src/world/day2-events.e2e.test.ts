import test from 'ava';
import { Kubectl, ensureKubectl } from '@wmco/sim';
import { NS, phaseIs, testWorld, until } from './world-fixture.js';

/** The `Events:` section of `kubectl describe` output (everything after the heading). */
function eventsSection(describe: string): string {
  const at = describe.search(/^Events:/m);
  return at < 0 ? '' : describe.slice(at);
}

// kubectl describe asks for events with `involvedObject.uid=<the object's uid>` (a Node also with
// `involvedObject.uid=<its name>`); the operator's events must carry the uid to be listed.
test.serial('kubectl describe lists the operator events on windows-instances and on the node', async (t) => {
  const missing = ensureKubectl();
  if (missing) return t.fail(missing);
  const { world } = await testWorld([{ hostname: 'WIN-A' }]);
  t.teardown(() => world.stop());
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries([world.hosts.entry(0)]));
  await world.startOperator();
  const address = world.hosts.hosts[0]!.address;
  await until(`${address} Ready`, phaseIs(world, address, 'Ready'), 90_000);
  const kubectl = new Kubectl(world.adminKubeconfig);

  const cm = await until('InstanceSetup on the ConfigMap', async () => {
    const r = await kubectl.run(['describe', 'configmap', 'windows-instances', '-n', NS]);
    if (r.code !== 0) throw new Error(r.stderr);
    return eventsSection(r.stdout).includes('InstanceSetup') ? r.stdout : undefined;
  });
  t.regex(
    eventsSection(cm),
    new RegExp(
      `Normal\\s+InstanceSetup\\s+.*Configured instance with address ${address.replaceAll('.', '\\.')}`,
    ),
  );

  const node = await until('NodeSetup on the Node', async () => {
    const r = await kubectl.run(['describe', 'node', 'win-a']);
    if (r.code !== 0) throw new Error(r.stderr);
    return eventsSection(r.stdout).includes('NodeSetup') ? r.stdout : undefined;
  });
  t.regex(eventsSection(node), /Normal\s+NodeSetup\s+.*Configured by the operator from instance/);
  t.notRegex(eventsSection(node), /InstanceSetup/, 'only the events about this node');
});
