import type { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import {
  CLUSTER_CONFIG_WATCHES,
  ClusterConfigWatches,
  SERVICES_CONFIGMAP_WATCH,
  exporterTlsWatch,
  servicesConfigMapWatch,
  trustedCaWatch,
} from '../controllers/cluster-config-watches.js';
import { TrustedCaConfigMap } from '../controllers/trusted-ca-configmap.js';
import { systemClock } from '../kube/clock.js';
import type { Logger } from '../kube/logger.js';
import type { WatchPort } from '../kube/watch-port.js';
import type { NodeMaintenance } from '../lifecycle/maintenance.js';
import type { Runnable } from './runnable.js';

export interface ConfigurationWatchesOptions {
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  readonly watch: WatchPort;
  readonly logger: Logger;
  readonly namespace: string;
  /** The version whose services ConfigMap is watched (and put back when changed or deleted). */
  readonly version: string;
  /** The lifecycle every source shares: a change requeues every node of every source. */
  readonly maintenance: NodeMaintenance;
  readonly onRestart?: ((informer: string, reason: string) => void) | undefined;
}

/**
 * The watches on what every Windows node carries (mirror sets, the proxy, the kubelet CA, the pull
 * secret, the trusted CA, the exporter's certificate, this version's services ConfigMap): a change puts
 * every node of every source on its queue through `NodeMaintenance.configChanged`, so Ready nodes get a
 * drift check now. Keeps `<namespace>/trusted-ca` labelled for the CA injection. One per process, shared
 * by every source.
 */
export class ConfigurationWatches implements Runnable {
  readonly name = 'configuration-watches';
  private readonly watches: ClusterConfigWatches;
  private readonly trustedCa: TrustedCaConfigMap;
  private started = false;

  constructor(o: ConfigurationWatchesOptions) {
    this.trustedCa = new TrustedCaConfigMap(o.core, o.namespace, o.logger);
    const sources = { core: o.core, custom: o.custom, watch: o.watch, clock: systemClock, logger: o.logger };
    this.watches = new ClusterConfigWatches(
      o.onRestart ? { ...sources, onRestart: o.onRestart } : sources,
      (what) => {
        if (what.startsWith('trusted-ca/')) void this.trustedCa.ensure();
        if (what.startsWith(`${SERVICES_CONFIGMAP_WATCH}/`)) o.maintenance.servicesConfigMapChanged();
        o.maintenance.configChanged();
      },
      [
        ...CLUSTER_CONFIG_WATCHES,
        trustedCaWatch(o.namespace),
        servicesConfigMapWatch(o.namespace, o.version),
        exporterTlsWatch(o.namespace),
      ],
    );
  }

  get synced(): boolean {
    return this.started;
  }

  start(): Promise<void> {
    this.watches.start();
    void this.trustedCa.ensure();
    this.started = true;
    return Promise.resolve();
  }

  stop(): Promise<void> {
    this.started = false;
    this.watches.stop();
    return Promise.resolve();
  }
}
