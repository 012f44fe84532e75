import { PatchStrategy, setHeaderOptions, type CoreV1Api } from '@kubernetes/client-node';
import { isConflict, isNotFound } from '../kube/client/api-errors.js';
import { STATUS_CONFIGMAP } from '../identity/node-metadata.js';
import { printableText } from '../kube/printable-text.js';
import type { InstancePhase, InstanceStatus, InstanceStatusStore } from './instance-status.js';
import type { OperatorCondition } from './operator-conditions.js';
import { OPERATOR_STATUS_KEY, storedOperatorConditions, storedStatuses } from './stored-statuses.js';

type DataChange = (data: Record<string, string>) => Record<string, string>;
/** Keys to set, or to delete (`null`), in the ConfigMap's data. */
type DataPatch = Readonly<Record<string, string | null>>;

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/**
 * Statuses in the ConfigMap `windows-instances-status` (one JSON value per address). A status is written
 * as a JSON merge patch of its own key (created with the ConfigMap when it does not exist yet): with 2,000
 * instances the ConfigMap holds about a megabyte, and reading and replacing all of it for each phase
 * change of each join made every write cost the whole fleet. `retain` alone reads and replaces it, with
 * resourceVersion checks and retried on conflict. Reads come from the in-memory copy this writer keeps,
 * filled by `load()` from what an earlier operator run wrote. The key `operator` holds the operator's own
 * conditions (`setOperator`), never an instance's, and is never pruned.
 */
export class ConfigMapStatusStore implements InstanceStatusStore {
  private readonly cache = new Map<string, InstanceStatus>();
  private readonly listeners: (() => void)[] = [];
  private operatorAtLoad: readonly OperatorCondition[] = [];
  private chain: Promise<void> = Promise.resolve();
  /** The patch waiting behind the write under way, not sent yet: later patches join it. */
  private queued: { readonly data: Record<string, string | null>; done?: Promise<void> } | undefined;

  constructor(
    private readonly api: CoreV1Api,
    private readonly namespace: string,
    /** Removes secrets from `lastError` (the operator's redactor); nothing is removed by default. */
    private readonly scrub: (text: string) => string = (t) => t,
  ) {}

  /**
   * Reads the statuses already in the ConfigMap (an earlier run's), so that the first write of this run
   * carries on their conditions, failures and timings instead of starting from nothing.
   */
  async load(): Promise<void> {
    const data = await this.api
      .readNamespacedConfigMap({ name: STATUS_CONFIGMAP, namespace: this.namespace })
      .then(
        (cm) => cm.data ?? {},
        (err: unknown) => {
          if (isNotFound(err)) return {};
          throw err;
        },
      );
    this.cache.clear();
    for (const s of storedStatuses(data)) this.cache.set(s.address, s);
    this.operatorAtLoad = storedOperatorConditions(data);
    this.changed();
  }

  /** The operator's conditions `load()` found (their transition times carry on). */
  loadedOperatorConditions(): readonly OperatorCondition[] {
    return this.operatorAtLoad;
  }

  /** Every instance status this writer knows. */
  all(): readonly InstanceStatus[] {
    return [...this.cache.values()];
  }

  /** Told after each change of an instance status (in memory; its write may still be under way). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  get(address: string): InstanceStatus | undefined {
    return this.cache.get(address);
  }

  set(given: InstanceStatus): Promise<void> {
    // The operator's own key is not an instance's: an entry of that name gets its events, not a status.
    if (given.address === OPERATOR_STATUS_KEY) return Promise.resolve();
    // Errors quote hosts and the API: redacted, one line, no control characters, bounded.
    const status =
      given.lastError === undefined
        ? given
        : { ...given, lastError: printableText(this.scrub(given.lastError)) };
    this.cache.set(status.address, status);
    this.changed();
    return this.patch({ [status.address]: JSON.stringify(status) });
  }

  /** Writes the operator's own section (its conditions), under the key `operator`. */
  setOperator(section: object): Promise<void> {
    return this.patch({ [OPERATOR_STATUS_KEY]: JSON.stringify(section) });
  }

  remove(address: string): Promise<void> {
    if (address === OPERATOR_STATUS_KEY) return Promise.resolve();
    this.cache.delete(address);
    this.changed();
    return this.patch({ [address]: null });
  }

  retain(given: (address: string, phase: InstancePhase | undefined) => boolean): Promise<void> {
    const keep = (address: string, phase: InstancePhase | undefined): boolean =>
      address === OPERATOR_STATUS_KEY || given(address, phase);
    for (const [address, status] of this.cache) if (!keep(address, status.phase)) this.cache.delete(address);
    this.changed();
    return this.write((data) =>
      Object.fromEntries(Object.entries(data).filter(([address, json]) => keep(address, phaseOf(json)))),
    );
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  /** Writes are serialised, so that two writes of one key reach the API server in the order they were made. */
  private write(change: DataChange): Promise<void> {
    this.queued = undefined; // a patch made after this write goes after it
    return this.serially(() => this.writeWithRetry(change));
  }

  /**
   * Patches made while another write is under way are sent together as one, when it ends (a key's latest
   * value wins, in the order they were made). Every response carries the whole ConfigMap, about a megabyte
   * at 2,000 instances: with joins changing phase several times a second, parsing one reply per change was
   * the largest item after garbage collection in a profile of the operator at 1,400 nodes (1.1 of 25 busy
   * seconds, besides the garbage those replies leave).
   */
  private patch(data: DataPatch): Promise<void> {
    const waiting = this.queued;
    if (waiting?.done) {
      Object.assign(waiting.data, data);
      return waiting.done;
    }
    const next: { readonly data: Record<string, string | null>; done?: Promise<void> } = {
      data: { ...data },
    };
    this.queued = next;
    next.done = this.serially(() => {
      if (this.queued === next) this.queued = undefined;
      return this.patchOnce(next.data);
    });
    return next.done;
  }

  private serially(work: () => Promise<void>): Promise<void> {
    const next = this.chain.then(work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** One merge patch of the named keys; the ConfigMap is created when missing (or patched, if another created it). */
  private async patchOnce(data: DataPatch): Promise<void> {
    const target = { name: STATUS_CONFIGMAP, namespace: this.namespace };
    try {
      await this.api.patchNamespacedConfigMap({ ...target, body: { data } }, MERGE_PATCH);
      return;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    const kept = Object.entries(data).filter((e): e is [string, string] => e[1] !== null);
    if (kept.length === 0) return;
    await this.create(Object.fromEntries(kept)).catch(async (err: unknown) => {
      if (!isConflict(err)) throw err; // AlreadyExists: another writer created it meanwhile
      await this.api.patchNamespacedConfigMap({ ...target, body: { data } }, MERGE_PATCH);
    });
  }

  private async create(data: Record<string, string>): Promise<void> {
    await this.api.createNamespacedConfigMap({
      namespace: this.namespace,
      body: {
        metadata: {
          name: STATUS_CONFIGMAP,
          namespace: this.namespace,
          labels: { 'app.kubernetes.io/managed-by': 'wmco' },
        },
        data,
      },
    });
  }

  private async writeWithRetry(change: DataChange): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.writeOnce(change);
        return;
      } catch (err) {
        if (!isConflict(err) || attempt >= 5) throw err;
      }
    }
  }

  private async writeOnce(change: DataChange): Promise<void> {
    const name = STATUS_CONFIGMAP;
    try {
      const cm = await this.api.readNamespacedConfigMap({ name, namespace: this.namespace });
      await this.api.replaceNamespacedConfigMap({
        name,
        namespace: this.namespace,
        body: { ...cm, data: change(cm.data ?? {}) },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await this.create(change({}));
    }
  }
}

function phaseOf(json: string): InstancePhase | undefined {
  try {
    const parsed = JSON.parse(json) as { phase?: InstancePhase };
    return parsed.phase;
  } catch {
    return undefined;
  }
}
