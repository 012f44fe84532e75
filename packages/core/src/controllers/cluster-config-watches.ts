import type { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import type { Clock } from '../kube/clock.js';
import type { Logger } from '../kube/logger.js';
import { EXPORTER_TLS_SECRET } from '../cluster/read-exporter-tls.js';
import { SupervisedInformer } from '../kube/supervised-informer.js';
import type { KubeList, KubeObject, ListPort, WatchPort } from '../kube/watch-port.js';
import { SERVICES_CONFIGMAP_PREFIX } from '../desired/services-configmap.js';

/** The name under which the services ConfigMap's changes are reported (`services-configmap/<name>`). */
export const SERVICES_CONFIGMAP_WATCH = 'services-configmap';

export interface ClusterConfigSources {
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  readonly watch: WatchPort;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly onRestart?: (informer: string, reason: string) => void;
}

/** One watched thing: its watch path, selector, and the matching list call. */
export interface Watched {
  readonly name: string;
  readonly path: string;
  readonly fieldSelector?: string;
  readonly list: (s: ClusterConfigSources) => ListPort<KubeObject>;
}

export function clusterScoped(name: string, group: string, plural: string): Watched {
  return {
    name,
    path: `/apis/${group}/v1/${plural}`,
    list: (s) => (sel) =>
      s.custom.listClusterCustomObject({ group, version: 'v1', plural, ...sel }) as Promise<
        KubeList<KubeObject>
      >,
  };
}

/** What the nodes' files follow, besides the operator's own inputs (issue 15 §1; reference §1.15). */
export const CLUSTER_CONFIG_WATCHES: readonly Watched[] = [
  clusterScoped('image-digest-mirror-sets', 'config.openshift.io', 'imagedigestmirrorsets'),
  clusterScoped('image-tag-mirror-sets', 'config.openshift.io', 'imagetagmirrorsets'),
  // Only `cluster` exists; its status carries the proxy the services get.
  clusterScoped('proxy', 'config.openshift.io', 'proxies'),
  // `machine-config-controller`: the kubelet CA (C:\k\kubelet-ca.crt, re-read by the kubelet).
  clusterScoped('controller-config', 'machineconfiguration.openshift.io', 'controllerconfigs'),
  // The mirrors' credentials in hosts.toml.
  {
    name: 'pull-secret',
    path: '/api/v1/namespaces/openshift-config/secrets',
    fieldSelector: 'metadata.name=pull-secret',
    list: (s) => (sel) => s.core.listNamespacedSecret({ namespace: 'openshift-config', ...sel }),
  },
];

/** One Secret or ConfigMap by name (a `metadata.name` field selector, as RBAC `resourceNames` allow). */
export function namedObject(resource: 'secrets' | 'configmaps', namespace: string, name: string): Watched {
  return {
    name: `${namespace}/${name}`,
    path: `/api/v1/namespaces/${namespace}/${resource}`,
    fieldSelector: `metadata.name=${name}`,
    list: (s) => (sel) =>
      resource === 'secrets'
        ? s.core.listNamespacedSecret({ namespace, ...sel })
        : s.core.listNamespacedConfigMap({ namespace, ...sel }),
  };
}

/** `<namespace>/trusted-ca`: its injected bundle goes into C:\k\ca-bundle.crt and the Root store. */
export function trustedCaWatch(namespace: string): Watched {
  return {
    name: 'trusted-ca',
    path: `/api/v1/namespaces/${namespace}/configmaps`,
    fieldSelector: 'metadata.name=trusted-ca',
    list: (s) => (sel) => s.core.listNamespacedConfigMap({ namespace, ...sel }),
  };
}

/** `<namespace>/windows-machine-config-operator-tls`: windows_exporter's certificate on every node. */
export function exporterTlsWatch(namespace: string): Watched {
  return {
    name: 'windows-exporter-tls',
    path: `/api/v1/namespaces/${namespace}/secrets`,
    fieldSelector: `metadata.name=${EXPORTER_TLS_SECRET}`,
    list: (s) => (sel) => s.core.listNamespacedSecret({ namespace, ...sel }),
  };
}

/**
 * `<namespace>/windows-services-<version>`: as upstream's configmap controller, a change or a deletion
 * puts it back at once, and (as WICD's watch on it) every node is looked at again.
 */
export function servicesConfigMapWatch(namespace: string, version: string): Watched {
  return {
    name: SERVICES_CONFIGMAP_WATCH,
    path: `/api/v1/namespaces/${namespace}/configmaps`,
    fieldSelector: `metadata.name=${SERVICES_CONFIGMAP_PREFIX}${version}`,
    list: (s) => (sel) => s.core.listNamespacedConfigMap({ namespace, ...sel }),
  };
}

/**
 * Watches on the cluster configuration that Ready nodes carry (mirror sets and their credentials, the
 * proxy, the kubelet CA): a change calls `changed` within the watch latency, so every node is looked at
 * again at once instead of at the next drift poll (which stays, as the safety net). Events from the
 * first list are not changes: the nodes were built from that state. The watches never hold up the
 * operator's start: a missing or unreadable type only means its changes wait for the drift poll.
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
    const informer = new SupervisedInformer<KubeObject>({
      name: w.name,
      path: w.path,
      list: w.list(s),
      watch: s.watch,
      clock: s.clock,
      logger: s.logger,
      ...(w.fieldSelector === undefined ? {} : { fieldSelector: w.fieldSelector }),
      onRestart: (reason) => s.onRestart?.(w.name, reason),
    });
    const fire = (o: KubeObject): void => {
      if (!informer.synced) return;
      s.logger.info({ watch: w.name, name: o.metadata?.name }, 'cluster configuration changed');
      this.changed(`${w.name}/${o.metadata?.name ?? ''}`);
    };
    for (const ev of ['add', 'update', 'delete'] as const) informer.on(ev, fire);
    return informer;
  }
}
