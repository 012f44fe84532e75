import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { InformedClusterFacts } from '../controllers/informed-cluster-facts.js';
import { InformedHostKeyStore } from '../controllers/kube-host-key-store.js';
import { InformedNodeRecords } from '../identity/informed-node-records.js';
import { kubeWatch } from '../kube/client/kube-watch.js';
import { systemClock } from '../kube/clock.js';
import type { Logger } from '../kube/logger.js';

/** What joins and drift checks read from watches instead of per-call GETs (issue 16 §5, ADR 0022). */
export interface ClusterCaches {
  readonly facts: InformedClusterFacts;
  readonly hostKeys: InformedHostKeyStore;
  /** The operator's node records (ADR 0035); `start()` it before any decision reads them. */
  readonly records: InformedNodeRecords;
  stop(): void;
}

/** The caches of one core; their watches start with the first read and end with `stop` (or `signal`). */
export function clusterCaches(
  kc: KubeConfig,
  namespace: string,
  logger: Logger,
  signal?: AbortSignal,
): ClusterCaches {
  const parts = {
    core: kc.makeApiClient(CoreV1Api),
    custom: kc.makeApiClient(CustomObjectsApi),
    namespace,
    logger,
  };
  const sources = { ...parts, watch: kubeWatch(kc), clock: systemClock };
  const facts = new InformedClusterFacts(sources);
  const hostKeys = new InformedHostKeyStore(sources);
  const records = new InformedNodeRecords(sources);
  const stop = (): void => {
    facts.stop();
    hostKeys.stop();
    records.stop();
  };
  signal?.addEventListener('abort', stop, { once: true });
  return { facts, hostKeys, records, stop };
}
