// Issue 29 item 2, Machines: Windows Machine nodes the Go WMCO joined on vSphere are taken over in place
// once the Go operator is gone, found through machine-api's data (the Machine's nodeRef and addresses),
// never through what a Node says about itself.
import test from 'ava';
import { PatchStrategy, setHeaderOptions, type V1Node } from '@kubernetes/client-node';
import type { SimulatedWindowsHost } from '@wmco/sim';
import { decodeNodeRecord, NODE_RECORD_LABEL } from '@wmco/core/internal';
import {
  daemonState,
  goWmcoMachines as stagedOn,
  serviceStarts,
  TAKEOVER_VERSION,
  type StagedMachines,
} from './go-wmco-machines-world.js';
import { GO_WMCO_VERSION } from './go-wmco-staging.js';
import { Watchdog } from './watchdog.js';
import { apis, eventsAbout, NS, until, windowsNodes } from './world-fixture.js';

const VERSION = TAKEOVER_VERSION;
const MACHINE = 'windowsmachineconfig.openshift.io/machine';
const versionOf = (n: V1Node): string | undefined =>
  n.metadata?.annotations?.['windowsmachineconfig.openshift.io/version'];

const daemon = daemonState;
const starts = serviceStarts;
const goWmcoMachines = (n: number): Promise<StagedMachines> => stagedOn('VSphere', n);

test.serial(
  'Machine nodes the Go WMCO joined are taken over: a matching VM restarts nothing, the others are upgraded one at a time',
  async (t) => {
    t.timeout(420_000);
    const { world, machines } = await goWmcoMachines(3);
    t.teardown(() => world.stop());
    for (const n of await windowsNodes(world)) {
      t.is(versionOf(n), GO_WMCO_VERSION);
      t.is(n.metadata?.annotations?.[MACHINE], undefined, 'no wmco-ts annotation left');
    }
    t.deepEqual(
      machines.map((m) => daemon(m.vm)),
      ['running', 'running', 'running'],
      'staged: the Go WMCO daemon runs',
    );
    // The second and third VMs were left with an older kube-proxy.exe than this operator's payload.
    for (const m of machines.slice(1)) m.vm.model.files.write('C:\\k\\kube-proxy.exe', Buffer.from('older'));
    const before = machines.map((m) => starts(m.vm));
    const dog = new Watchdog(world);
    await dog.start();

    await world.startOperator('wmco-ts', { version: VERSION, maxUnavailable: '1' });
    await until(
      'every Machine node on this version, claimed and schedulable',
      async () => {
        const nodes = await windowsNodes(world);
        return nodes.length === 3 &&
          nodes.every(
            (n) =>
              versionOf(n) === VERSION &&
              n.metadata?.annotations?.[MACHINE] &&
              n.spec?.unschedulable !== true,
          )
          ? true
          : undefined;
      },
      240_000,
    );
    dog.stop();

    t.is(
      starts(machines[0]?.vm as SimulatedWindowsHost),
      before[0] ?? -1,
      'no service started on the matching VM',
    );
    for (const [i, m] of machines.entries())
      if (i > 0) t.true(starts(m.vm) > (before[i] ?? 0), `${m.node} was reconfigured`);
    t.is(dog.maxUnavailable, 1, `one node unavailable at a time (saw ${dog.worst.join(', ')})`);
    const nodes = await windowsNodes(world);
    t.deepEqual(
      nodes.map((n) => n.metadata?.uid).sort(),
      machines.map((m) => m.uid).sort(),
      'the same Node objects: nothing re-joined',
    );
    const events = await eventsAbout(world);
    const upgraded = events.filter((e) => e.reason === 'Upgraded').map((e) => e.message.split(' ')[2]);
    t.deepEqual(
      upgraded.sort(),
      machines
        .slice(1)
        .map((m) => m.node)
        .sort(),
      'upgraded: those two only',
    );
    t.deepEqual(
      machines.map((m) => daemon(m.vm)),
      [undefined, undefined, undefined],
      'the Go WMCO daemon is deleted',
    );
    const removed = events.filter((e) => e.reason === 'UpstreamDaemonRemoved').map((e) => e.message);
    t.deepEqual(
      removed.map((m) => / on node (\S+) /.exec(m)?.[1]).sort(),
      machines.map((m) => m.node).sort(),
    );
    const taken = events.filter((e) => e.reason === 'NodeTakenOver').map((e) => e.message);
    t.is(taken.length, 3, taken.join('\n'));
    t.true(
      taken.some(
        (m) =>
          m.startsWith(
            `Took over node ${machines[0]?.node} (joined by another operator, version ${GO_WMCO_VERSION})`,
          ) && /nothing was restarted/.test(m),
      ),
    );
    const records = await apis(world).core.listNamespacedConfigMap({
      namespace: NS,
      labelSelector: `${NODE_RECORD_LABEL}=true`,
    });
    const recorded = records.items.map((cm) => decodeNodeRecord(cm));
    t.deepEqual(recorded.map((r) => r?.nodeName).sort(), machines.map((m) => m.node).sort());
    t.true(
      recorded.every((r) => r?.hostKey !== undefined && r.source === 'machine'),
      'host keys pinned',
    );
  },
);

test.serial(
  'a Machine node whose VM has another host key or another name is reported and not taken over',
  async (t) => {
    t.timeout(420_000);
    const { world, machines } = await goWmcoMachines(2);
    t.teardown(() => world.stop());
    const [a, b] = machines;
    if (a === undefined || b === undefined) throw new Error('two Machines expected');
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const { core } = apis(world);
    // a: another host key recorded on its Node; b: its VM now reports another computer name.
    await core.patchNode(
      {
        name: a.node,
        body: {
          metadata: {
            annotations: {
              'windowsmachineconfig.openshift.io/ssh-host-key': 'AAAAC3NzaC1lZDI1NTE5AAAAIOther',
            },
          },
        },
      },
      merge,
    );
    b.vm.model.hostname = 'SOMEONE-ELSE';
    const footprint = async (name: string): Promise<unknown> => {
      const n = await core.readNode({ name });
      return { a: n.metadata?.annotations, l: n.metadata?.labels, u: n.spec?.unschedulable };
    };
    const before = { a: await footprint(a.node), b: await footprint(b.node) };
    const started = [starts(a.vm), starts(b.vm)];

    await world.startOperator('wmco-ts', { version: VERSION });
    for (const [m, why] of [
      [a, /SSH key .* is not the one recorded on the Node/],
      [b, /computer name .* is not the node name/],
    ] as const) {
      const s = await until(`Machine ${m.name} refused`, async () => {
        const st = await world.status(`machine.${m.name}`);
        return st?.phase === 'Failed' ? st : undefined;
      });
      t.regex(s.lastError ?? '', why);
    }
    const refused = (await eventsAbout(world)).filter((e) => e.reason === 'NodeTakeoverRefused');
    t.true(
      refused.some((e) => e.message.includes(a.node)) && refused.some((e) => e.message.includes(b.node)),
    );
    t.deepEqual(
      { a: await footprint(a.node), b: await footprint(b.node) },
      before,
      'Nodes left as they were',
    );
    t.deepEqual([starts(a.vm), starts(b.vm)], started, 'nothing ran on the refused VMs');
    t.deepEqual([daemon(a.vm), daemon(b.vm)], ['running', 'running'], 'their daemon left alone');
    t.deepEqual(
      (await windowsNodes(world)).map((n) => n.metadata?.uid).sort(),
      machines.map((m) => m.uid).sort(),
      'no Node re-created',
    );
  },
);
