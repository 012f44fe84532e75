import type { CoreV1Api, V1Pod } from '@kubernetes/client-node';
import { apiStatus, describeApiError, isNotFound } from './api-errors.js';
import { silentLogger, type Logger } from '../logger.js';

export interface DrainOptions {
  /** Give up after this long (upstream: 10 min). */
  readonly timeoutMs: number;
  /** Pause between eviction retries while a PodDisruptionBudget refuses (kubectl: 5 s). */
  readonly retryMs?: number;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
  /** Called after each pass that left pods on the node (a PodDisruptionBudget refused, or still terminating). */
  readonly onWaiting?: (pods: readonly string[]) => void | Promise<void>;
  /**
   * The admin's drain timeout: after this long, the pods evictions could not move are deleted (PodDisruptionBudgets
   * no longer consulted, as `kubectl drain --disable-eviction`), then waited for up to `timeoutMs`. Absent: evict
   * only, and give up after `timeoutMs` (the default, as before).
   */
  readonly forceAfterMs?: number | undefined;
  /** Grace period of those deletions; absent: each pod's own `terminationGracePeriodSeconds` (kubectl's -1). */
  readonly gracePeriodSeconds?: number | undefined;
  /** Called once, before the deletions, with the pods the timeout deletes. */
  readonly onForced?: (pods: readonly string[]) => void | Promise<void>;
}

export interface DrainResult {
  readonly evicted: readonly string[];
  readonly skipped: readonly string[];
  /** Pods deleted after the drain timeout, despite their PodDisruptionBudget. */
  readonly forced: readonly string[];
}

export class DrainError extends Error {
  constructor(nodeName: string, blocking: readonly string[], why: string) {
    super(`cannot drain node ${nodeName}: ${why}; still there: ${blocking.join(', ')}`);
    this.name = 'DrainError';
  }
}

/** A pause that ends early when `signal` aborts (the loops check it next): a stop never waits out a retry. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
const podName = (p: V1Pod): string => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;

/** Pods drain leaves alone: DaemonSet pods (they would come back) and static mirror pods. */
function skipped(p: V1Pod): boolean {
  if (p.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined) return true;
  return (p.metadata?.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet' && o.controller === true);
}

async function evictOnce(api: CoreV1Api, pod: V1Pod): Promise<'gone' | 'evicting' | 'blocked'> {
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? '';
  try {
    await api.createNamespacedPodEviction({
      name,
      namespace,
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } },
    });
    return 'evicting';
  } catch (err) {
    if (isNotFound(err)) return 'gone';
    if (apiStatus(err) === 429) return 'blocked';
    throw err;
  }
}

async function stillThere(api: CoreV1Api, pod: V1Pod): Promise<boolean> {
  try {
    const now = await api.readNamespacedPod({
      name: pod.metadata?.name ?? '',
      namespace: pod.metadata?.namespace ?? '',
    });
    return now.metadata?.uid === pod.metadata?.uid;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/** One pass of evictions; returns the pods still on the node. */
async function evictRound(api: CoreV1Api, nodeName: string, pods: readonly V1Pod[]): Promise<V1Pod[]> {
  const left: V1Pod[] = [];
  for (const pod of pods) {
    const state = await evictOnce(api, pod).catch((err: unknown) => {
      throw new DrainError(nodeName, [podName(pod)], describeApiError(err));
    });
    if (state === 'blocked' || (state === 'evicting' && (await stillThere(api, pod)))) left.push(pod);
  }
  return left;
}

/** Deletes each pod (its grace period, or the one given); one already gone is fine. */
async function deleteAll(
  api: CoreV1Api,
  nodeName: string,
  pods: readonly V1Pod[],
  grace?: number,
): Promise<void> {
  for (const pod of pods) {
    await api
      .deleteNamespacedPod({
        name: pod.metadata?.name ?? '',
        namespace: pod.metadata?.namespace ?? '',
        ...(grace === undefined ? {} : { gracePeriodSeconds: grace }),
      })
      .catch((err: unknown) => {
        if (!isNotFound(err)) throw new DrainError(nodeName, [podName(pod)], describeApiError(err));
      });
  }
}

/** Waits until none of `pods` is on the node any more (same uid), or throws once `o.timeoutMs` passed. */
async function awaitGone(
  api: CoreV1Api,
  nodeName: string,
  pods: readonly V1Pod[],
  o: DrainOptions,
): Promise<void> {
  const deadline = Date.now() + o.timeoutMs;
  let left = [...pods];
  while (left.length > 0) {
    if (o.signal?.aborted) throw new DrainError(nodeName, left.map(podName), 'interrupted');
    const still: V1Pod[] = [];
    for (const pod of left) if (await stillThere(api, pod)) still.push(pod);
    left = still;
    if (left.length === 0) return;
    if (Date.now() >= deadline)
      throw new DrainError(nodeName, left.map(podName), 'timed out after the deletion');
    await sleep(o.retryMs ?? 5000, o.signal);
  }
}

/** The pods evictions could not move, deleted once the admin's drain timeout ran out; their names. */
async function forceOut(
  api: CoreV1Api,
  nodeName: string,
  pods: readonly V1Pod[],
  o: DrainOptions,
): Promise<string[]> {
  const names = pods.map(podName);
  await o.onForced?.(names);
  await deleteAll(api, nodeName, pods, o.gracePeriodSeconds);
  await awaitGone(api, nodeName, pods, o);
  return names;
}

/** The deadline passed with pods left: deleted with the admin's drain timeout (their names), else give up. */
function atDeadline(
  api: CoreV1Api,
  nodeName: string,
  left: readonly V1Pod[],
  o: DrainOptions,
): Promise<string[]> {
  if (o.forceAfterMs === undefined) throw new DrainError(nodeName, left.map(podName), 'timed out');
  return forceOut(api, nodeName, left, o);
}

/** Reports the pods still there, then pauses before the next eviction pass. */
async function pause(nodeName: string, left: readonly V1Pod[], o: DrainOptions): Promise<void> {
  const names = left.map(podName);
  (o.logger ?? silentLogger).info({ node: nodeName, waiting: names }, 'waiting for pods to leave');
  await o.onWaiting?.(names);
  await sleep(o.retryMs ?? 5000, o.signal);
}

/**
 * Eviction passes until no pod is left (none forced), or until the deadline: then the pods left are deleted
 * with the admin's drain timeout (their names), or the drain gives up without it.
 */
async function evictUntilDone(
  api: CoreV1Api,
  nodeName: string,
  pods: readonly V1Pod[],
  options: DrainOptions,
): Promise<string[]> {
  const deadline = Date.now() + (options.forceAfterMs ?? options.timeoutMs);
  let pending = [...pods];
  while (pending.length > 0) {
    if (options.signal?.aborted) throw new DrainError(nodeName, pending.map(podName), 'interrupted');
    pending = await evictRound(api, nodeName, pending);
    if (pending.length === 0) break;
    if (Date.now() >= deadline) return atDeadline(api, nodeName, pending, options);
    await pause(nodeName, pending, options);
  }
  return [];
}

/**
 * Evicts every pod of a node through the Eviction API, so PodDisruptionBudgets are honoured (a refused
 * eviction is retried until the budget allows it or time runs out), skipping DaemonSet and mirror pods,
 * then waits until the evicted pods are gone. With the admin's drain timeout (`forceAfterMs`) the pods still
 * there when it runs out are deleted and waited for, as upstream's drain helper with its options (Force,
 * DeleteEmptyDirData, IgnoreAllDaemonSets; the pods' own grace period) and `--disable-eviction`.
 * The node must already be cordoned.
 */
export async function drainNode(
  api: CoreV1Api,
  nodeName: string,
  options: DrainOptions,
): Promise<DrainResult> {
  const list = await api.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${nodeName}` });
  const pods = list.items.filter((p) => !skipped(p));
  const forced = await evictUntilDone(api, nodeName, pods, options);
  const gone = new Set(forced);
  return {
    evicted: pods.map(podName).filter((p) => !gone.has(p)),
    skipped: list.items.filter(skipped).map(podName),
    forced,
  };
}
