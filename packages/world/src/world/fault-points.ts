import type { InstanceStatus } from '@wmco/core/internal';
import type { RequestMatcher } from '@wmco/sim';
import type { FaultContext } from './fault-row.js';
import { NS, until } from './world-fixture.js';

/** Waits until the target's status shows `phase` (the point a fault is aimed at). */
export async function atPhase(c: FaultContext, phase: InstanceStatus['phase']): Promise<void> {
  await until(
    `${c.target.spec.hostname} ${phase}`,
    async () => ((await c.world.status(c.target.address))?.phase === phase ? true : undefined),
    240_000,
    20,
  );
}

/** Waits until the target's kubelet service exists: the middle of a join, after its first apply. */
export async function kubeletCreated(c: FaultContext): Promise<void> {
  const scm = c.target.sim.model.scm;
  await until(
    'the kubelet service to be created',
    () => Promise.resolve(scm.events.some((e) => e.action === 'create' && e.name === 'kubelet') || undefined),
    240_000,
    20,
  );
}

/** The operator's writes of its status ConfigMap (only the operator writes it). */
export const statusWrites: RequestMatcher = (method, path) =>
  method !== 'GET' && path === `/api/v1/namespaces/${NS}/configmaps/windows-instances-status`;

/**
 * The operator's updates (PUT, with a resourceVersion: a 409 is possible) of its own ConfigMaps. Its merge
 * patches of statuses and pins (PATCH, no resourceVersion) never get a 409 from a real API server.
 */
export const ownUpdates: RequestMatcher = (method, path) =>
  method === 'PUT' &&
  path.startsWith(`/api/v1/namespaces/${NS}/configmaps/`) &&
  /windows-instances-status|windows-node-record-/.test(path);

/**
 * The operator's creates of ConfigMaps in its namespace (a node record, the pending pins, the status):
 * a real API server answers 409 AlreadyExists when another writer created the object first.
 */
export function ownCreates(c: FaultContext): RequestMatcher {
  const server = c.world.cluster.server;
  const configMaps = server.registry.mustFind('', 'v1', 'configmaps');
  // Not the test's own create of windows-instances that lists the hosts: only creates after it.
  const listed = (): boolean => server.store.get(configMaps, NS, 'windows-instances') !== undefined;
  return (method, path) => method === 'POST' && path === `/api/v1/namespaces/${NS}/configmaps` && listed();
}

/** Writes to the target's Node object (not its status, which its kubelet writes). */
export function nodeWrites(c: FaultContext, method: string): RequestMatcher {
  const node = `/api/v1/nodes/${c.target.spec.hostname.toLowerCase()}`;
  return (m, p) => m === method && p === node;
}

/** Every watch dropped at once, a write, and the history compacted: informers relist after a 410. */
export function dropAndCompact(c: FaultContext, marker: string): number {
  const server = c.world.cluster.server;
  const dropped = server.faults.dropWatches();
  const cm = server.registry.mustFind('', 'v1', 'configmaps');
  server.writer.create(cm, NS, { metadata: { name: `fault-marker-${marker}` } });
  server.faults.compact();
  return dropped;
}

/** Waits until the target's host has run the removal's `deconfigure`. */
export async function deconfigured(c: FaultContext): Promise<void> {
  await until(
    'the host to be deconfigured',
    () => Promise.resolve(c.target.sim.invocations.some((i) => i.op === 'deconfigure') || undefined),
    240_000,
    20,
  );
}

/** Waits until the target goes down for a reboot it had not had when this was called. */
export async function goingDown(c: FaultContext): Promise<void> {
  const before = c.target.sim.stats.reboots;
  await until(
    'the host to go down for its reboot',
    () => Promise.resolve(c.target.sim.stats.reboots > before || undefined),
    240_000,
    20,
  );
}
