// Issue 29 item 2 on cloud platforms: Windows Machine nodes the Go WMCO joined on Azure (a simulated Azure
// Resource Manager behind machine-api, the Machine user `capi`, node name = computer name) and on AWS
// and GCP (simulated EC2 and GCE, node name = the name the cloud's metadata gives, which the Machine's
// InternalDNS address carries) are taken over in place: a VM that already matches restarts nothing, another is upgraded
// under the budget, and the Go WMCO's daemon goes on both.
import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { decodeNodeRecord, NODE_RECORD_LABEL } from '@wmco/core/internal';
import { daemonState, goWmcoMachines, serviceStarts, TAKEOVER_VERSION } from './go-wmco-machines-world.js';
import { GO_WMCO_VERSION } from './go-wmco-staging.js';
import { Watchdog } from './watchdog.js';
import { apis, eventsAbout, NS, until, windowsNodes } from './world-fixture.js';

const MACHINE = 'windowsmachineconfig.openshift.io/machine';
const versionOf = (n: V1Node): string | undefined =>
  n.metadata?.annotations?.['windowsmachineconfig.openshift.io/version'];

const USER: Readonly<Record<string, string>> = { Azure: 'capi', AWS: 'Administrator', GCP: 'Administrator' };

for (const platform of ['Azure', 'AWS', 'GCP']) {
  test.serial(
    `${platform} Machine nodes the Go WMCO joined are taken over: the matching VM restarts nothing`,
    async (t) => {
      t.timeout(420_000);
      const { world, machines } = await goWmcoMachines(platform, 2);
      t.teardown(() => world.stop());
      const [same, older] = machines;
      if (same === undefined || older === undefined) throw new Error('two Machines expected');
      for (const n of await windowsNodes(world)) t.is(versionOf(n), GO_WMCO_VERSION);
      t.deepEqual([daemonState(same.vm), daemonState(older.vm)], ['running', 'running']);
      // The second VM was left with an older kube-proxy.exe than this operator's payload.
      older.vm.model.files.write('C:\\k\\kube-proxy.exe', Buffer.from('older'));
      const before = [serviceStarts(same.vm), serviceStarts(older.vm)];
      const dog = new Watchdog(world);
      await dog.start();

      await world.startOperator('wmco-ts', { version: TAKEOVER_VERSION, maxUnavailable: '1' });
      await until(
        'both Machine nodes on this version, claimed and schedulable',
        async () => {
          const nodes = await windowsNodes(world);
          const done = (n: V1Node): boolean =>
            versionOf(n) === TAKEOVER_VERSION &&
            n.metadata?.annotations?.[MACHINE] !== undefined &&
            n.spec?.unschedulable !== true;
          return nodes.length === 2 && nodes.every(done) ? true : undefined;
        },
        240_000,
      );
      dog.stop();

      t.is(serviceStarts(same.vm), before[0] ?? -1, 'no service started on the matching VM');
      t.true(serviceStarts(older.vm) > (before[1] ?? 0), 'the other VM was reconfigured');
      t.is(dog.maxUnavailable, 1, `one node unavailable at most (saw ${dog.worst.join(', ')})`);
      t.deepEqual([daemonState(same.vm), daemonState(older.vm)], [undefined, undefined], 'WICD deleted');
      t.deepEqual(
        (await windowsNodes(world)).map((n) => n.metadata?.uid).sort(),
        machines.map((m) => m.uid).sort(),
        'the same Node objects: nothing re-joined or replaced',
      );
      const events = await eventsAbout(world);
      const of = (reason: string): string[] =>
        events.filter((e) => e.reason === reason).map((e) => e.message);
      t.deepEqual(
        of('Upgraded').map((m) => m.split(' ')[2]),
        [older.node],
        'upgraded: the older VM only',
      );
      t.true(
        of('NodeTakenOver').some(
          (m) => m.startsWith(`Took over node ${same.node}`) && /nothing was restarted/.test(m),
        ),
      );
      t.deepEqual(
        of('UpstreamDaemonRemoved')
          .map((m) => / on node (\S+) /.exec(m)?.[1])
          .sort(),
        [same.node, older.node].sort(),
      );
      const records = await apis(world).core.listNamespacedConfigMap({
        namespace: NS,
        labelSelector: `${NODE_RECORD_LABEL}=true`,
      });
      const recorded = records.items.map((cm) => decodeNodeRecord(cm));
      t.deepEqual(
        recorded.map((r) => [r?.nodeName, r?.source, r?.username]).sort(),
        [
          [same.node, 'machine', USER[platform]],
          [older.node, 'machine', USER[platform]],
        ].sort(),
      );
    },
  );
}
