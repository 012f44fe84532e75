import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_EVENT_COMPONENT, KubeEventRecorder, type Logger } from '@wmco/core';
import { OPERATOR_DEPLOYMENT } from '../cli/must-gather/gather-pod-logs.js';
import type { Redactor } from './redactor.js';

/** The reason of the Warning event an operator writes before it stops on a cluster it does not support. */
export const CLUSTER_NOT_SUPPORTED = 'ClusterNotSupported';

/**
 * Records why the operator stops at start (a class E cluster network, no OVN hybrid overlay, a Kubernetes
 * version too old) as a Warning event on its Deployment in its namespace, so `kubectl get events` there and
 * `kubectl describe deployment` say it, not only the log of a pod that keeps restarting. A write the API
 * server refuses is logged; the stop goes on either way.
 */
export async function recordUnsupportedCluster(
  kc: KubeConfig,
  p: { readonly namespace: string; readonly logger: Logger; readonly redactor: Redactor },
  message: string,
): Promise<void> {
  const events = new KubeEventRecorder(kc.makeApiClient(CoreV1Api), {
    component: DEFAULT_EVENT_COMPONENT,
    scrub: (t) => p.redactor.scrubText(t),
    logger: p.logger,
  });
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    name: OPERATOR_DEPLOYMENT,
    namespace: p.namespace,
  };
  await events.record(deployment, 'Warning', CLUSTER_NOT_SUPPORTED, message);
}
