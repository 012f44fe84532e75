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
}

export interface DrainResult {
  readonly evicted: readonly string[];
  readonly skipped: readonly string[];
}

export class DrainError extends Error {
  constructor(nodeName: string, blocking: readonly string[], why: string) {
    super(`cannot drain node ${nodeName}: ${why}; still there: ${blocking.join(', ')}`);
    this.name = 'DrainError';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
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

/**
 * Evicts every pod of a node through the Eviction API, so PodDisruptionBudgets are honoured (a refused
 * eviction is retried until the budget allows it or time runs out), skipping DaemonSet and mirror pods,
 * then waits until the evicted pods are gone. The node must already be cordoned.
 */
export async function drainNode(
  api: CoreV1Api,
  nodeName: string,
  options: DrainOptions,
): Promise<DrainResult> {
  const logger = options.logger ?? silentLogger;
  const deadline = Date.now() + options.timeoutMs;
  const list = await api.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${nodeName}` });
  const pods = list.items.filter((p) => !skipped(p));
  let pending = pods;
  while (pending.length > 0) {
    if (options.signal?.aborted) throw new DrainError(nodeName, pending.map(podName), 'interrupted');
    pending = await evictRound(api, nodeName, pending);
    if (pending.length === 0) break;
    if (Date.now() >= deadline) throw new DrainError(nodeName, pending.map(podName), 'timed out');
    logger.info({ node: nodeName, waiting: pending.map(podName) }, 'waiting for pods to leave');
    await options.onWaiting?.(pending.map(podName));
    await sleep(options.retryMs ?? 5000);
  }
  return { evicted: pods.map(podName), skipped: list.items.filter(skipped).map(podName) };
}
