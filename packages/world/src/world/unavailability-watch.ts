import { KubeConfig, Watch, type V1Node } from '@kubernetes/client-node';
import type { SimWorld } from './sim-world.js';
import type { UnavailabilityTracker } from './node-unavailability.js';

/**
 * Watches the world's Nodes (those `labelSelector` selects; every one without it), from a list's snapshot
 * on, feeding `tracker`: every change the API server makes is seen, however short. A watch the server ends
 * is started again (from the start: the tracker replaces each node's state). Returns how to stop.
 */
export async function watchUnavailability(
  world: SimWorld,
  tracker: Pick<UnavailabilityTracker, 'observe'>,
  labelSelector?: string,
): Promise<() => void> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  let stopped = false;
  let current: { abort(): void } | undefined;
  const start = async (): Promise<void> => {
    if (stopped) return;
    current = await new Watch(kc).watch(
      '/api/v1/nodes',
      labelSelector === undefined ? {} : { labelSelector },
      (type: string, node: V1Node) => tracker.observe(type, node),
      () => restart(),
    );
  };
  // A watch that could not be opened again (the API server busy or restarting) is tried again, not left
  // dead: a test would then wait for ever on what it no longer sees.
  const restart = (): void => {
    start().catch(() => setTimeout(restart, 200).unref());
  };
  await start();
  return () => {
    stopped = true;
    current?.abort();
  };
}
