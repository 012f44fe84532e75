import type { V1Node } from '@kubernetes/client-node';
import type { JoinDeps } from './join-deps.js';
import { instancesConfigMapRef } from './join-deps.js';
import { designNode, type NodeDesignDeps } from '../desired/node-spec.js';
import { publishServicesConfigMap } from './services-configmap-publisher.js';
import { SERVICES_CONFIGMAP_PREFIX } from '../desired/services-configmap.js';
import { isNotFound } from '../kube/client/api-errors.js';
import { errorMessage } from '../kube/logger.js';
import { Annotations } from '../identity/node-metadata.js';

/** The versions some Windows node still carries (`version` or `desired-version`). */
export function carriedVersions(nodes: readonly V1Node[]): Set<string> {
  const out = new Set<string>();
  for (const n of nodes) {
    const a = n.metadata?.annotations ?? {};
    for (const v of [a[Annotations.version], a[Annotations.desiredVersion]]) if (v) out.add(v);
  }
  return out;
}

/** What the keeper needs: the node design's inputs, the facts, and where to publish and report. */
export type ServicesKeeperDeps = NodeDesignDeps &
  Pick<JoinDeps, 'core' | 'namespace' | 'version' | 'facts' | 'events' | 'logger'>;

/**
 * The lifecycle of `windows-services-<version>` (reference §1.4, upstream's configmap controller): this
 * version's ConfigMap is published at start, before any node is configured with it, and put back when
 * someone deletes or edits it; a ConfigMap of a version no Windows node carries any more is deleted.
 * `sync` runs at start (after the node informer synced), then every `intervalMs` and whenever the
 * ConfigMap's watch sees it change (`syncSoon`).
 */
export class ServicesConfigMapKeeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deps: ServicesKeeperDeps,
    private readonly nodes: () => readonly V1Node[],
  ) {}

  async sync(): Promise<{ deleted: string[] }> {
    const design = designNode(this.deps, await this.deps.facts());
    await publishServicesConfigMap(this.deps.core, this.deps.namespace, this.deps.version, design);
    const keep = carriedVersions(this.nodes());
    keep.add(this.deps.version);
    const list = await this.deps.core.listNamespacedConfigMap({ namespace: this.deps.namespace });
    const stale = list.items
      .map((cm) => cm.metadata?.name ?? '')
      .filter(
        (n) =>
          n.startsWith(SERVICES_CONFIGMAP_PREFIX) && !keep.has(n.slice(SERVICES_CONFIGMAP_PREFIX.length)),
      );
    for (const name of stale) await this.delete(name);
    return { deleted: stale };
  }

  start(intervalMs: number): void {
    this.stopped = false;
    if (intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => this.syncSoon(), intervalMs);
  }

  /**
   * A sync in the background, one at a time: asked for while one runs (a watch saw the ConfigMap change
   * meanwhile), it runs once more afterwards, so no change is left to the next interval.
   */
  syncSoon(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.sync()
      .then(() => undefined)
      .catch((err: unknown) =>
        this.deps.logger.warn({ err: errorMessage(err) }, 'services ConfigMap sync failed'),
      )
      .finally(() => {
        this.running = undefined;
        if (!this.again) return;
        this.again = false;
        this.syncSoon();
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async delete(name: string): Promise<void> {
    try {
      await this.deps.core.deleteNamespacedConfigMap({ name, namespace: this.deps.namespace });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      return;
    }
    await this.deps.events.record(
      instancesConfigMapRef(this.deps.namespace),
      'Normal',
      'ServicesConfigMapDeleted',
      `Deleted ${name}: no Windows node carries that version any more`,
    );
  }
}
