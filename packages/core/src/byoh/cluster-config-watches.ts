import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { Clock } from '../kube/clock.js';
import type { Logger } from '../kube/logger.js';
import { SupervisedInformer } from '../kube/supervised-informer.js';
import type { KubeList, KubeObject, WatchPort } from '../kube/watch-port.js';

export interface ClusterConfigSources {
  readonly custom: CustomObjectsApi;
  readonly watch: WatchPort;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly onRestart?: (informer: string, reason: string) => void;
}

/** A cluster-scoped OpenShift config object the nodes' configuration is built from. */
interface Watched {
  readonly name: string;
  readonly group: string;
  readonly version: string;
  readonly plural: string;
}

/** What the nodes' files follow, besides the operator's own inputs (issue 15 §1; reference §1.15). */
export const CLUSTER_CONFIG_WATCHES: readonly Watched[] = [
  {
    name: 'image-digest-mirror-sets',
    group: 'config.openshift.io',
    version: 'v1',
    plural: 'imagedigestmirrorsets',
  },
  {
    name: 'image-tag-mirror-sets',
    group: 'config.openshift.io',
    version: 'v1',
    plural: 'imagetagmirrorsets',
  },
  // Only `cluster` exists; its status carries the proxy the services get.
  { name: 'proxy', group: 'config.openshift.io', version: 'v1', plural: 'proxies' },
  // `machine-config-controller`: the kubelet CA (C:\k\kubelet-ca.crt, re-read by the kubelet).
  {
    name: 'controller-config',
    group: 'machineconfiguration.openshift.io',
    version: 'v1',
    plural: 'controllerconfigs',
  },
];

/**
 * Watches on the cluster configuration that Ready nodes carry (mirror sets, the proxy, the kubelet CA): a change calls `changed`
 * within the watch latency, so every node is looked at again at once instead of at the next drift poll
 * (which stays, as the safety net). Events from the first list are not changes: the nodes were built
 * from that state. The watches never hold up the operator's start: a missing or unreadable type only
 * means its changes wait for the drift poll.
 */
export class ClusterConfigWatches {
  private readonly informers: SupervisedInformer<KubeObject>[];

  constructor(
    s: ClusterConfigSources,
    private readonly changed: (what: string) => void,
    watched: readonly Watched[] = CLUSTER_CONFIG_WATCHES,
  ) {
    this.informers = watched.map((w) => this.informer(s, w));
  }

  start(): void {
    for (const i of this.informers) void i.start();
  }

  stop(): void {
    for (const i of this.informers) i.stop();
  }

  private informer(s: ClusterConfigSources, w: Watched): SupervisedInformer<KubeObject> {
    const { group, version, plural } = w;
    const informer = new SupervisedInformer<KubeObject>({
      name: w.name,
      path: `/apis/${group}/${version}/${plural}`,
      list: (sel) =>
        s.custom.listClusterCustomObject({ group, version, plural, ...sel }) as Promise<KubeList<KubeObject>>,
      watch: s.watch,
      clock: s.clock,
      logger: s.logger,
      onRestart: (reason) => s.onRestart?.(w.name, reason),
    });
    const fire = (o: KubeObject): void => {
      if (!informer.synced) return;
      s.logger.info({ kind: plural, name: o.metadata?.name }, 'cluster configuration changed');
      this.changed(`${plural}/${o.metadata?.name ?? ''}`);
    };
    for (const ev of ['add', 'update', 'delete'] as const) informer.on(ev, fire);
    return informer;
  }
}
