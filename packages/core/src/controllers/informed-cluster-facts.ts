import type { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import type { ClusterFacts } from '../desired/cluster-facts.js';
import { readClusterFacts } from '../cluster/read-cluster-facts.js';
import { EXPORTER_TLS_SECRET } from '../cluster/read-exporter-tls.js';
import { CLOUD_NODE_MANAGER_TOKEN_SECRET } from '../cluster/read-cloud-node-manager-token.js';
import { TRUSTED_CA_CONFIGMAP } from '../cluster/read-trusted-ca.js';
import { SupervisedInformer } from '../kube/supervised-informer.js';
import type { KubeObject } from '../kube/watch-port.js';
import {
  clusterScoped,
  namedObject,
  type ClusterConfigSources,
  type Watched,
} from './cluster-config-watches.js';

const BOOTSTRAP_NAMESPACE = 'openshift-machine-config-operator';

/** Every object `readClusterFacts` reads, as watches; `key` is how the facts reader asks for it. */
function factWatches(namespace: string): { key: string; watched: Watched }[] {
  const cluster = (group: string, plural: string): { key: string; watched: Watched } => ({
    key: `${group}/${plural}`,
    watched: clusterScoped(`${group}/${plural}`, group, plural),
  });
  return [
    cluster('config.openshift.io', 'infrastructures'),
    cluster('config.openshift.io', 'networks'),
    cluster('operator.openshift.io', 'networks'),
    cluster('machineconfiguration.openshift.io', 'controllerconfigs'),
    cluster('machineconfiguration.openshift.io', 'machineconfigs'),
    cluster('config.openshift.io', 'proxies'),
    cluster('config.openshift.io', 'imagedigestmirrorsets'),
    cluster('config.openshift.io', 'imagetagmirrorsets'),
    {
      key: 'secrets/openshift-config/pull-secret',
      watched: namedObject('secrets', 'openshift-config', 'pull-secret'),
    },
    {
      key: `secrets/${BOOTSTRAP_NAMESPACE}/node-bootstrapper-token`,
      watched: namedObject('secrets', BOOTSTRAP_NAMESPACE, 'node-bootstrapper-token'),
    },
    {
      key: `configmaps/${namespace}/${TRUSTED_CA_CONFIGMAP}`,
      watched: namedObject('configmaps', namespace, TRUSTED_CA_CONFIGMAP),
    },
    {
      key: `secrets/${namespace}/${EXPORTER_TLS_SECRET}`,
      watched: namedObject('secrets', namespace, EXPORTER_TLS_SECRET),
    },
    {
      key: `secrets/${namespace}/${CLOUD_NODE_MANAGER_TOKEN_SECRET}`,
      watched: namedObject('secrets', namespace, CLOUD_NODE_MANAGER_TOKEN_SECRET),
    },
  ];
}

/** What the API answers for an object that is not there, as `isNotFound` recognises it. */
const notFound = (what: string): Error => Object.assign(new Error(`${what} not found`), { code: 404 });

/**
 * The cluster facts of joins and drift checks, from informer caches (issue 16 §5): every object
 * `readClusterFacts` reads is listed once and watched, and the facts are assembled from those caches by
 * the same reader, so a drift check costs the API server nothing. The facts are kept until one of the
 * watched objects changes. Until every watch has listed (or when one is restarting after an error) the
 * facts are read from the API server directly, as before.
 */
export class InformedClusterFacts {
  private readonly informers = new Map<string, SupervisedInformer<KubeObject>>();
  private started = false;
  private stopped = false;
  private memo: Promise<ClusterFacts> | undefined;
  /** Facts assembled from the caches, and reads that went to the API server (for tests and metrics). */
  readonly stats = { fromCache: 0, direct: 0 };

  constructor(
    private readonly s: ClusterConfigSources & { readonly namespace: string },
    private readonly read: typeof readClusterFacts = readClusterFacts,
  ) {
    for (const { key, watched } of factWatches(s.namespace)) {
      const informer = new SupervisedInformer<KubeObject>({
        name: watched.name,
        path: watched.path,
        list: watched.list(s),
        watch: s.watch,
        clock: s.clock,
        logger: s.logger,
        ...(watched.fieldSelector === undefined ? {} : { fieldSelector: watched.fieldSelector }),
        onRestart: (reason) => {
          this.memo = undefined;
          s.onRestart?.(watched.name, reason);
        },
      });
      for (const ev of ['add', 'update', 'delete'] as const) informer.on(ev, () => (this.memo = undefined));
      this.informers.set(key, informer);
    }
  }

  get synced(): boolean {
    return [...this.informers.values()].every((i) => i.synced);
  }

  /** The facts; the watches start with the first call (after `stop()`, every call reads the API server). */
  facts(): Promise<ClusterFacts> {
    if (!this.started && !this.stopped) {
      this.started = true;
      for (const i of this.informers.values()) void i.start();
    }
    if (this.stopped || !this.synced) {
      this.stats.direct++;
      return this.read(this.s.core, this.s.custom, this.s.namespace);
    }
    if (this.memo) return this.memo;
    this.stats.fromCache++;
    const memo = this.read(this.cachedCore(), this.cachedCustom(), this.s.namespace);
    this.memo = memo;
    // A failed assembly (an object missing) is not kept: the next call tries again.
    memo.catch(() => {
      if (this.memo === memo) this.memo = undefined;
    });
    return memo;
  }

  /** Ends the watches for good: a call still under way, or a later one, never starts them again. */
  stop(): void {
    this.stopped = true;
    for (const i of this.informers.values()) i.stop();
    this.memo = undefined;
  }

  private cache(key: string): SupervisedInformer<KubeObject> {
    const informer = this.informers.get(key);
    if (!informer) throw new Error(`no informer for ${key}`);
    return informer;
  }

  private named(key: string, name: string): KubeObject {
    const found = this.cache(key)
      .list()
      .find((o) => o.metadata?.name === name);
    if (!found) throw notFound(`${key}/${name}`);
    return found;
  }

  /** The custom-object reads of `readClusterFacts`, answered from the caches. */
  private cachedCustom(): CustomObjectsApi {
    const reader = {
      getClusterCustomObject: (r: { group: string; plural: string; name: string }) =>
        Promise.resolve(this.named(`${r.group}/${r.plural}`, r.name)),
      listClusterCustomObject: (r: { group: string; plural: string }) =>
        Promise.resolve({ items: this.cache(`${r.group}/${r.plural}`).list() }),
    };
    return reader as unknown as CustomObjectsApi;
  }

  /** The Secret and ConfigMap reads of `readClusterFacts`, answered from the caches. */
  private cachedCore(): CoreV1Api {
    const reader = {
      readNamespacedSecret: (r: { name: string; namespace: string }) =>
        Promise.resolve(this.named(`secrets/${r.namespace}/${r.name}`, r.name)),
      readNamespacedConfigMap: (r: { name: string; namespace: string }) =>
        Promise.resolve(this.named(`configmaps/${r.namespace}/${r.name}`, r.name)),
    };
    return reader as unknown as CoreV1Api;
  }
}
