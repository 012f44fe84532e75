import { PatchStrategy, setHeaderOptions, type CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import type { HostKeyStore, PinnedHostKey } from '../host/host-key-store.js';
import { pinsOf, type HostPinRemover } from '../host/host-pins.js';
import { isConflict, isNotFound } from '../kube/client/api-errors.js';
import { PENDING_HOST_KEYS_CONFIGMAP } from '../identity/node-metadata.js';
import { SupervisedInformer } from '../kube/supervised-informer.js';
import { namedObject, type ClusterConfigSources } from './cluster-config-watches.js';

const encode = (k: PinnedHostKey): string => `${k.type} ${k.base64}`;
const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

function decode(value: string | undefined): PinnedHostKey | undefined {
  const [type, base64] = (value ?? '').split(' ');
  return type && base64 ? { type, base64 } : undefined;
}

/**
 * Host keys pinned on first use in one ConfigMap keyed by address: by default
 * `windows-ssh-host-keys-pending`, the pins of hosts that have no node record yet (ADR 0038; a recorded
 * host's pin is its record's). A pin lasts as long as its instance: it is forgotten once the instance's
 * entry and Node are removed or its Machine is deleted (host/host-pins.ts), or moved into the record.
 */
export class ConfigMapHostKeyStore implements HostKeyStore, HostPinRemover {
  constructor(
    private readonly api: CoreV1Api,
    private readonly namespace: string,
    private readonly name: string = PENDING_HOST_KEYS_CONFIGMAP,
  ) {}

  async get(address: string): Promise<PinnedHostKey | undefined> {
    try {
      const cm = await this.api.readNamespacedConfigMap({
        name: this.name,
        namespace: this.namespace,
      });
      return decode(cm.data?.[address]);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /**
   * A merge patch of the address's own key (the ConfigMap created when missing): fifty joins pinning at
   * once each read and replaced the whole ConfigMap, met each other's writes and gave up after five
   * conflicts, and their joins failed and were retried.
   */
  async pin(address: string, key: PinnedHostKey): Promise<void> {
    const body = { data: { [address]: encode(key) } };
    const patch = (): Promise<unknown> =>
      this.api.patchNamespacedConfigMap({ name: this.name, namespace: this.namespace, body }, MERGE_PATCH);
    try {
      await patch();
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // Missing: create it with this pin; when another pin created it first, this one is patched in.
      if (!(await this.create(body.data))) await patch();
    }
  }

  forget(address: string): Promise<void> {
    return this.forgetHosts([address]).then(() => undefined);
  }

  /**
   * Removes every pin of `hosts` (none when nothing is pinned for them): one read to find them, then one
   * merge patch deleting those keys, which no other pin's write can make conflict (each join's record
   * write drops its host's pending pin, fifty at once while a fleet joins).
   */
  async forgetHosts(hosts: readonly string[]): Promise<readonly string[]> {
    const target = { name: this.name, namespace: this.namespace };
    let data: Record<string, string>;
    try {
      data = (await this.api.readNamespacedConfigMap(target)).data ?? {};
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
    const gone = pinsOf(Object.keys(data), hosts);
    if (gone.length === 0) return gone;
    const body = { data: Object.fromEntries(gone.map((k) => [k, null])) };
    try {
      await this.api.patchNamespacedConfigMap({ ...target, body }, MERGE_PATCH);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    return gone;
  }

  /** True when created; false when someone else created it meanwhile. */
  private async create(data: Record<string, string>): Promise<boolean> {
    try {
      await this.api.createNamespacedConfigMap({
        namespace: this.namespace,
        body: {
          metadata: {
            name: this.name,
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
 * never missed (and never pinned over), and a pin this store forgot is read from the API server until the
 * cache has caught up with the removal. Pins and removals go to the API server. The watch starts with the
 * first read.
 */
export class InformedHostKeyStore implements HostKeyStore, HostPinRemover {
  private readonly store: ConfigMapHostKeyStore;
  private readonly informer: SupervisedInformer<V1ConfigMap>;
  /** Pins forgotten here (key → the value forgotten) that the cache may still hold. */
  private readonly forgotten = new Map<string, string>();
  private started = false;
  private stopped = false;

  constructor(s: Omit<ClusterConfigSources, 'custom'> & { readonly namespace: string }) {
    this.store = new ConfigMapHostKeyStore(s.core, s.namespace);
    const watched = namedObject('configmaps', s.namespace, PENDING_HOST_KEYS_CONFIGMAP);
    this.informer = new SupervisedInformer<V1ConfigMap>({
      name: watched.name,
      path: watched.path,
      list: (sel) => s.core.listNamespacedConfigMap({ namespace: s.namespace, ...sel }),
      watch: s.watch,
      clock: s.clock,
      logger: s.logger,
      fieldSelector: `metadata.name=${PENDING_HOST_KEYS_CONFIGMAP}`,
      onRestart: (reason) => s.onRestart?.(watched.name, reason),
    });
  }

  async get(address: string): Promise<PinnedHostKey | undefined> {
    if (!this.started && !this.stopped) {
      this.started = true;
      void this.informer.start();
    }
    const raw = this.cached(address);
    const stale = raw !== undefined && this.forgotten.get(address) === raw;
    if (raw !== undefined && !stale) {
      this.forgotten.delete(address);
      return decode(raw);
    }
    const current = await this.store.get(address);
    // The API server holds the cache's value again (pinned anew): the cache can be trusted for it.
    if (stale && current !== undefined && encode(current) === raw) this.forgotten.delete(address);
    return current;
  }

  pin(address: string, key: PinnedHostKey): Promise<void> {
    return this.store.pin(address, key);
  }

  forget(address: string): Promise<void> {
    this.tombstone([address]);
    return this.store.forget(address);
  }

  async forgetHosts(hosts: readonly string[]): Promise<readonly string[]> {
    const gone = await this.store.forgetHosts(hosts);
    this.tombstone(gone);
    return gone;
  }

  /** Ends the watch for good; later reads go to the API server. */
  stop(): void {
    this.stopped = true;
    this.informer.stop();
  }

  /** The cache's raw pin for `address`, or undefined (also before the first list and after `stop`). */
  private cached(address: string): string | undefined {
    if (!this.informer.synced || this.stopped) return undefined;
    return this.informer.list().find((cm) => cm.metadata?.name === PENDING_HOST_KEYS_CONFIGMAP)?.data?.[
      address
    ];
  }

  private tombstone(keys: readonly string[]): void {
    for (const k of keys) {
      const raw = this.cached(k);
      if (raw !== undefined) this.forgotten.set(k, raw);
    }
  }
}
