import type { V1Node } from '@kubernetes/client-node';
import { LIFECYCLE_PHASE_ANNOTATION } from '@wmco/core';
import type { SimWorld } from './sim-world.js';
import { NS, phaseIs, testWorld, until, windowsNodes } from './world-fixture.js';
import { Workload } from './workload.js';

export const VERSION_A = '1.0.0';
export const VERSION_B = '1.1.0';
/** The one binary that differs between A's and B's payloads. */
export const CHANGED_BINARY = 'kube-proxy.exe';
const VERSION = 'windowsmachineconfig.openshift.io/version';

export const versionOf = (n: V1Node): string | undefined => n.metadata?.annotations?.[VERSION];

/** Four hosts joined by operator A (stopped again), a PDB-protected workload of four pods on them. */
export async function worldOnVersionA(
  hostCount = 4,
): Promise<{ world: SimWorld; workload: Workload; payloadB: string }> {
  const hosts = Array.from({ length: hostCount }, (_, i) => ({ hostname: `WIN-${'ABCDEFGH'[i] ?? i}` }));
  const { world } = await testWorld(hosts, { costs: { powershellStartMs: 100 } });
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
  const a = await world.startOperator('wmco-a', { version: VERSION_A });
  for (const h of world.hosts.hosts)
    await until(`${h.address} Ready on A`, phaseIs(world, h.address, 'Ready'), 120_000);
  await until('every node annotated with A', async () =>
    (await windowsNodes(world)).every((n) => versionOf(n) === VERSION_A) ? true : undefined,
  );
  await a.stop();
  const workload = new Workload(world, 'web', NS, hostCount);
  await workload.start(hostCount - 1);
  return { world, workload, payloadB: await world.payloadVariant('b', [CHANGED_BINARY]) };
}

/** Every Windows node on `version`, uncordoned, with no lifecycle step left. */
export function allUpgraded(world: SimWorld, version = VERSION_B): () => Promise<true | undefined> {
  return async () => {
    const nodes = await windowsNodes(world);
    const done = nodes.every(
      (n) =>
        versionOf(n) === version &&
        !n.spec?.unschedulable &&
        n.metadata?.annotations?.[LIFECYCLE_PHASE_ANNOTATION] === undefined,
    );
    return done ? true : undefined;
  };
}

/** Upload bytes each host has received so far, by node name (hostname lower-cased). */
export function bytesByHost(world: SimWorld): Map<string, number> {
  return new Map(world.hosts.hosts.map((h) => [h.spec.hostname.toLowerCase(), h.sim.stats.bytesReceived]));
}
