import { CoordinationV1Api, type KubeConfig } from '@kubernetes/client-node';
import {
  KubeLeaseStore,
  LeaderElector,
  systemClock,
  type EventRecorder,
  type LeaderElectionConfig,
  type Logger,
} from '@wmco/core';

export const LEADER_LEASE_NAME = 'windows-machine-config-operator-lock';

export interface OperatorElectorParts {
  readonly namespace: string;
  readonly config: LeaderElectionConfig;
  readonly logger: Logger;
  readonly events: EventRecorder;
}

/**
 * The operator's elector on its Lease. A write the API server refuses (not a 409 from another replica)
 * means this operator cannot lead: it is logged as an error and becomes a Warning event about the
 * Lease (`LeaderElectionFailed`), so `kubectl get events` in the operator's namespace says why hosts stay
 * Pending.
 */
export function operatorElector(kc: KubeConfig, p: OperatorElectorParts): LeaderElector {
  const store = new KubeLeaseStore(kc.makeApiClient(CoordinationV1Api), p.namespace, LEADER_LEASE_NAME);
  const lease = {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    name: LEADER_LEASE_NAME,
    namespace: p.namespace,
  };
  return new LeaderElector(store, systemClock, p.config, {
    logger: p.logger,
    onWriteRefused: (reason) =>
      void p.events.record(
        lease,
        'Warning',
        'LeaderElectionFailed',
        `${p.config.identity} cannot write the leader Lease, so it cannot lead: ${reason}`,
      ),
  });
}
