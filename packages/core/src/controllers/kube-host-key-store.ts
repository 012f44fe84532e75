import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import type { HostKeyStore, PinnedHostKey } from '../host/host-key-store.js';
import { isConflict, isNotFound } from '../kube/client/api-errors.js';
import { HOST_KEYS_CONFIGMAP } from '../identity/node-metadata.js';
import { SupervisedInformer } from '../kube/supervised-informer.js';
import { namedObject, type ClusterConfigSources } from './cluster-config-watches.js';

const encode = (k: PinnedHostKey): string => `${k.type} ${k.base64}`;

function decode(value: string | undefined): PinnedHostKey | undefined {
  const [type, base64] = (value ?? '').split(' ');
  return type && base64 ? { type, base64 } : undefined;
}

/**
 * Host keys pinned on first use, in the ConfigMap `windows-ssh-host-keys` keyed by address. Unlike
 * upstream, the pin outlives the Node: a host removed from `windows-instances` and added back must
 * present the same key (the Node also carries it, as annotations, for people).
 */
export class ConfigMapHostKeyStore implements HostKeyStore {
  constructor(
    private readonly api: CoreV1Api,
    private readonly namespace: string,
  ) {}

  async get(address: string): Promise<PinnedHostKey | undefined> {
    try {
      const cm = await this.api.readNamespacedConfigMap({
        name: HOST_KEYS_CONFIGMAP,
        namespace: this.namespace,
      });
      return decode(cm.data?.[address]);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  pin(address: string, key: PinnedHostKey): Promise<void> {
    return this.update((data) => ({ ...data, [address]: encode(key) }));
  }

  forget(address: string): Promise<void> {
    return this.update((data) => Object.fromEntries(Object.entries(data).filter(([k]) => k !== address)));
  }

  private async update(change: (data: Record<string, string>) => Record<string, string>): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const cm = await this.api.readNamespacedConfigMap({
          name: HOST_KEYS_CONFIGMAP,
          namespace: this.namespace,
        });
        await this.api.replaceNamespacedConfigMap({
          name: HOST_KEYS_CONFIGMAP,
          namespace: this.namespace,
          body: { ...cm, data: change(cm.data ?? {}) },
        });
        return;
      } catch (err) {
        if (!isNotFound(err) && !isConflict(err)) throw err;
        // Not found: create it; a concurrent pin may create it first (409), then the loop updates it.
        if (isNotFound(err) && (await this.create(change({})))) return;
      }
    }
    throw new Error(`cannot update ${HOST_KEYS_CONFIGMAP}: too many conflicts`);
  }

  /** True when created; false when someone else created it meanwhile. */
  private async create(data: Record<string, string>): Promise<boolean> {
    try {
      await this.api.createNamespacedConfigMap({
        namespace: this.namespace,
        body: {
          metadata: {
            name: HOST_KEYS_CONFIGMAP,
            namespace: this.namespace,
            labels: { 'app.kubernetes.io/managed-by': 'windows-machine-config-operator' },
          },
          data,
        },
      });
      return true;
    } catch (err) {
      if (isConflict(err)) return false;
      throw err;
    }
  }
}

/**
 * `ConfigMapHostKeyStore` with its reads answered from a watch of the ConfigMap (issue 16 §5: a drift
 * check reads no cluster object per check). Only a pin the cache holds is answered from it: an address
 * the cache does not know is read from the API server, so a pin made a moment ago by another join is
 * never missed (and never pinned over). Pins and removals go to the API server. The watch starts with the
 * first read.
 */
export class InformedHostKeyStore implements HostKeyStore {
  private readonly store: ConfigMapHostKeyStore;
  private readonly informer: SupervisedInformer<V1ConfigMap>;
  private started = false;
  private stopped = false;

  constructor(s: Omit<ClusterConfigSources, 'custom'> & { readonly namespace: string }) {
    this.store = new ConfigMapHostKeyStore(s.core, s.namespace);
    const watched = namedObject('configmaps', s.namespace, HOST_KEYS_CONFIGMAP);
    this.informer = new SupervisedInformer<V1ConfigMap>({
      name: watched.name,
      path: watched.path,
      list: (sel) => s.core.listNamespacedConfigMap({ namespace: s.namespace, ...sel }),
      watch: s.watch,
      clock: s.clock,
      logger: s.logger,
      fieldSelector: `metadata.name=${HOST_KEYS_CONFIGMAP}`,
      onRestart: (reason) => s.onRestart?.(watched.name, reason),
    });
  }

  get(address: string): Promise<PinnedHostKey | undefined> {
    if (!this.started && !this.stopped) {
      this.started = true;
      void this.informer.start();
    }
    const cached =
      this.informer.synced && !this.stopped
        ? decode(
            this.informer.list().find((cm) => cm.metadata?.name === HOST_KEYS_CONFIGMAP)?.data?.[address],
          )
        : undefined;
    return cached ? Promise.resolve(cached) : this.store.get(address);
  }

  pin(address: string, key: PinnedHostKey): Promise<void> {
    return this.store.pin(address, key);
  }

  forget(address: string): Promise<void> {
    return this.store.forget(address);
  }

  /** Ends the watch for good; later reads go to the API server. */
  stop(): void {
    this.stopped = true;
    this.informer.stop();
  }
}
