import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import type { Clock } from '../kube/clock.js';
import type { JoinTimings } from './join-deps.js';
import { readNode } from './node-ops.js';
import { waitFor } from './wait-for.js';

/** Every new state of a Node, as a watch delivers it (the Windows nodes informer's adds and updates). */
export interface NodeChanges {
  /** Calls `fn` with each new state of the Node `name` until the returned function is called. */
  subscribe(name: string, fn: (node: V1Node) => void): () => void;
}

/** A NodeChanges fed by `publish`, which the informer's add and update handlers call. */
export class NodeChangeFeed implements NodeChanges {
  private readonly listeners = new Map<string, Set<(node: V1Node) => void>>();

  subscribe(name: string, fn: (node: V1Node) => void): () => void {
    const set = this.listeners.get(name) ?? new Set();
    set.add(fn);
    this.listeners.set(name, set);
    return () => {
      set.delete(fn);
      if (set.size === 0 && this.listeners.get(name) === set) this.listeners.delete(name);
    };
  }

  publish(node: V1Node): void {
    const set = this.listeners.get(node.metadata?.name ?? '');
    for (const fn of [...(set ?? [])]) fn(node);
  }

  /** How many Nodes someone waits for (nothing is kept once a wait ends). */
  get watched(): number {
    return this.listeners.size;
  }
}

export interface NodeWaitDeps {
  readonly core: CoreV1Api;
  readonly timings: JoinTimings;
  readonly nodeChanges?: NodeChanges | undefined;
}

export interface NodeWait {
  readonly signal: AbortSignal;
  /** Default: `timings.nodeReadyMs`. */
  readonly timeoutMs?: number;
  /** Default: `node <name>`. */
  readonly what?: string;
  readonly clock?: Clock;
}

/**
 * Waits until the Node `name` exists and satisfies `ok`. With a change feed, a watch event that
 * satisfies it ends the wait at once; the API server is read at the start and every `timings.pollMs`
 * (without a feed, the only way; with one, the safety net for a watch that stalls). A Node of another OS
 * is read too, so the caller decides what a Node it cannot own means.
 */
export function waitForNode(
  deps: NodeWaitDeps,
  name: string,
  ok: (node: V1Node) => boolean,
  w: NodeWait,
): Promise<V1Node> {
  const feed = deps.nodeChanges;
  return waitFor<V1Node>(
    async () => {
      const node = await readNode(deps.core, name);
      return node && ok(node) ? node : undefined;
    },
    {
      timeoutMs: w.timeoutMs ?? deps.timings.nodeReadyMs,
      pollMs: deps.timings.pollMs,
      signal: w.signal,
      what: w.what ?? `node ${name}`,
      ...(w.clock ? { clock: w.clock } : {}),
      ...(feed ? { changes: (offer) => feed.subscribe(name, (n) => offer(ok(n) ? n : undefined)) } : {}),
    },
  );
}
