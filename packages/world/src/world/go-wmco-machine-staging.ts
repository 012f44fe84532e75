import { Annotations, encryptUpstreamUsername } from '@wmco/core/internal';
import { PatchStrategy, setHeaderOptions, type V1Node } from '@kubernetes/client-node';
import type { SimulatedWindowsHost } from '@wmco/sim';
import { forgetWmcoTsRecords, GO_WMCO_VERSION } from './go-wmco-staging.js';
import { stageGoWmcoDaemon } from './go-wmco-daemon-staging.js';
import type { SimWorld } from './sim-world.js';
import { apis, NS, windowsNodes } from './world-fixture.js';

/** The VM behind a Machine node, found by the node's InternalIP (test staging only). */
function vmOf(world: SimWorld, node: V1Node): SimulatedWindowsHost {
  const ip = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
  const vm = world.machineHost(ip);
  if (vm === undefined) throw new Error(`no VM at ${ip} for node ${node.metadata?.name ?? ''}`);
  return vm;
}

/**
 * Turns a world whose Machine nodes a wmco-ts operator joined (and that operator stopped) into one the Go
 * WMCO joined and was then uninstalled from (reference §1.6 steps 10-13): each Machine node keeps what
 * upstream writes on it (`pub-key-hash`, `ssh-host-key`/`-type`), its `version` and `desired-version`
 * become `GO_WMCO_VERSION`, and wmco-ts's own `machine` annotation, node records, host-key pins and
 * status are removed. Upstream writes no `username` annotation on Machine nodes (its Machine controller
 * passes no extra annotations; the user is the platform's); `username` adds one as BYOH nodes carry it.
 * The Machines keep their `status.addresses`, `providerID` and `nodeRef` (machine-api's, not the
 * operator's); the VMs keep the files and services the join left, and each gets the Go WMCO's daemon
 * (WICD) as its `ConfigureWICD` leaves it, running.
 */
export async function stageGoWmcoMachines(world: SimWorld, o: { username?: string } = {}): Promise<void> {
  const { core } = apis(world);
  const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
  for (const node of await windowsNodes(world)) {
    if (node.metadata?.annotations?.[Annotations.machine] === undefined) continue;
    const annotations = {
      [Annotations.machine]: null,
      [Annotations.version]: GO_WMCO_VERSION,
      [Annotations.desiredVersion]: GO_WMCO_VERSION,
      [Annotations.username]:
        o.username === undefined ? null : await encryptUpstreamUsername(o.username, world.privateKey),
    };
    await core.patchNode({ name: node.metadata.name ?? '', body: { metadata: { annotations } } }, merge);
    await stageGoWmcoDaemon(vmOf(world, node).model, NS);
  }
  await forgetWmcoTsRecords(world);
}
