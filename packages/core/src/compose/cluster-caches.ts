import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { InformedClusterFacts } from '../controllers/informed-cluster-facts.js';
import { InformedHostKeyStore } from '../controllers/kube-host-key-store.js';
import { InformedNodeRecords } from '../identity/informed-node-records.js';
import type { NodeRecords } from '../identity/node-record-store.js';
import { RecordedHostKeys } from '../identity/recorded-host-keys.js';
import { kubeWatch } from '../kube/client/kube-watch.js';
import { systemClock } from '../kube/clock.js';
import type { Logger } from '../kube/logger.js';

/** What joins and drift checks read from watches instead of per-call GETs (issue 16 §5, ADR 0022). */
export interface ClusterCaches {
  readonly facts: InformedClusterFacts;
  /** Host-key pins: a recorded host's in its node record, the others pending (ADR 0038). */
  readonly hostKeys: RecordedHostKeys;
  /** The operator's node records (ADR 0035), written through `hostKeys` so a record takes its pin. */
  readonly records: NodeRecords;
  /** Resolves once the records' first list filled their cache: no decision is made before. */
  startRecords(): Promise<void>;
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
  const pending = new InformedHostKeyStore(sources);
  const informed = new InformedNodeRecords(sources);
  const hostKeys = new RecordedHostKeys(informed, pending);
  const stop = (): void => {
    facts.stop();
    pending.stop();
    informed.stop();
  };
  // A signal aborted before the caches exist (a stop during start-up) stops them at once: an abort
  // listener added after the abort is never called, and the records' watch would outlive the stop.
  if (signal?.aborted) stop();
  else signal?.addEventListener('abort', stop, { once: true });
  return { facts, hostKeys, records: hostKeys.records, startRecords: () => informed.start(), stop };
}
