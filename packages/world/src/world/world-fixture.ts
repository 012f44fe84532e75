import { CertificatesV1Api, CoreV1Api, KubeConfig, type V1Node } from '@kubernetes/client-node';
import type { InstanceStatus } from '@wmco/core/internal';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import { loadBuiltinProviders } from '@wmco/operator';
import { SimWorld, type SimWorldOptions } from './sim-world.js';
import type { SimHostSpec } from './world-hosts.js';
import { settledWithin } from './settled-within.js';

export const NS = OPERATOR_NAMESPACE;

/** A world for one test, with every operator log line kept (for the secret-scanning checks). */
export async function testWorld(
  hosts: readonly SimHostSpec[],
  extra: Partial<SimWorldOptions> = {},
): Promise<{ world: SimWorld; logs: string[] }> {
  const logs: string[] = [];
  const world = await SimWorld.start({
    hosts,
    providers: await loadBuiltinProviders(),
    logSink: (l) => logs.push(l),
    ...extra,
  });
  return { world, logs };
}

/**
 * The drift poll (and resync) of the day-2 tests: longer than any test runs, so what reaches the nodes
 * within a test came through a watch; a change the watches missed is never repaired and its wait fails.
 */
export const NO_DRIFT_POLL_MS = 24 * 3_600_000;

/**
 * How long a day-2 test waits for a watched change to reach every node: a guard against a hang, not the
 * claim (that is made by NO_DRIFT_POLL_MS), so it is generous enough for a machine busy with other work.
 */
export const WATCHED_CHANGE_WAIT_MS = 180_000;

export function apis(world: SimWorld): { core: CoreV1Api; certificates: CertificatesV1Api } {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  return { core: kc.makeApiClient(CoreV1Api), certificates: kc.makeApiClient(CertificatesV1Api) };
}

export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A probe that never settles (an API call left unanswered) counts as no answer by the deadline, so a
    // stuck test fails naming what it waited for instead of hanging until ava's inactivity timeout.
    const r = await settledWithin(probe(), Math.max(deadline - Date.now(), intervalMs));
    if (r !== 'late' && r.ok && r.value !== undefined) return r.value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function phaseIs(
  world: SimWorld,
  address: string,
  phase: InstanceStatus['phase'],
): () => Promise<InstanceStatus | undefined> {
  return async () => {
    const s = await world.status(address);
    if (s?.phase === 'Failed' && phase !== 'Failed')
      throw new Error(`${address} failed: ${s.lastError ?? ''}`);
    return s?.phase === phase ? s : undefined;
  };
}

export async function windowsNodes(world: SimWorld): Promise<V1Node[]> {
  return (await apis(world).core.listNode({ labelSelector: 'kubernetes.io/os=windows' })).items;
}

export async function eventsAbout(
  world: SimWorld,
): Promise<{ reason: string; message: string; type: string }[]> {
  // Events about the operator's objects are in its namespace; those about Nodes and CSRs in `default`.
  const lists = await Promise.all(
    [NS, 'default'].map((namespace) => apis(world).core.listNamespacedEvent({ namespace })),
  );
  return lists
    .flatMap((l) => l.items)
    .map((e) => ({ reason: e.reason ?? '', message: e.message ?? '', type: e.type ?? '' }));
}

/** The key Secret, every host of the world listed in windows-instances, one operator; resolves when all are Ready. */
export async function joinAll(world: SimWorld): Promise<void> {
  await world.createPrivateKeySecret();
  await world.setInstances(Object.fromEntries(world.hosts.hosts.map((_, i) => world.hosts.entry(i))));
  await world.startOperator();
  for (const h of world.hosts.hosts)
    await until(`${h.address} Ready`, phaseIs(world, h.address, 'Ready'), 90_000);
}
