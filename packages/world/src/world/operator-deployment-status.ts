import { OPERATOR_NAMESPACE, type ResourceType, type SimApiServer } from '@wmco/sim';

type Json = Record<string, unknown>;

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' ? v : fallback;
}

/** The status the Deployment controller reports once every replica of `generation` is updated and available. */
export function rolledOutStatus(deployment: Json): Json | undefined {
  const meta = (deployment['metadata'] ?? {}) as Json;
  const spec = (deployment['spec'] ?? {}) as Json;
  const status = (deployment['status'] ?? {}) as Json;
  const generation = num(meta['generation'], 1);
  const replicas = num(spec['replicas'], 1);
  if (status['observedGeneration'] === generation && status['availableReplicas'] === replicas)
    return undefined;
  const condition = (type: string, reason: string, message: string): Json => ({
    type,
    status: 'True',
    reason,
    message,
  });
  return {
    observedGeneration: generation,
    replicas,
    updatedReplicas: replicas,
    readyReplicas: replicas,
    availableReplicas: replicas,
    conditions: [
      condition('Available', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'),
      condition('Progressing', 'NewReplicaSetAvailable', 'ReplicaSet has successfully progressed.'),
    ],
  };
}

/**
 * Keeps the status of `wmco sim`'s operator Deployment as the Deployment controller would once a rollout
 * finished: the in-process operator stands for the Pods of every revision, so a changed spec (`kubectl
 * apply -f deploy/`, `kubectl set image`) is reported rolled out at once and `kubectl rollout status`
 * returns. Other Deployments are left alone. Returns the unsubscribe function.
 */
export function keepOperatorDeploymentStatus(
  server: SimApiServer,
  deployments: ResourceType,
  name: string,
): () => void {
  const sync = (): void => {
    const d = server.store.get(deployments, OPERATOR_NAMESPACE, name) as Json | undefined;
    const status = d === undefined ? undefined : rolledOutStatus(d);
    if (d === undefined || status === undefined) return;
    server.writer.update({ type: deployments, namespace: OPERATOR_NAMESPACE, name, subresource: 'status' }, {
      ...d,
      status,
    } as Parameters<SimApiServer['writer']['update']>[1]);
  };
  sync();
  // After the write that caused the event has finished, as the sim's controllers do (never inside a write).
  return server.store.subscribe((e) => {
    const meta = (e.object['metadata'] ?? {}) as Json;
    if (
      e.object['kind'] === 'Deployment' &&
      meta['name'] === name &&
      meta['namespace'] === OPERATOR_NAMESPACE
    )
      setImmediate(sync);
  });
}
