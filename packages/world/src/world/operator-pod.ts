import { ContainerLogBuffer, OPERATOR_NAMESPACE, type ResourceType, type SimApiServer } from '@wmco/sim';
import { keepOperatorDeploymentStatus } from './operator-deployment-status.js';

/** The name, labels and container of the operator's Deployment in deploy/07-deployment.yaml. */
export const OPERATOR_DEPLOYMENT = 'windows-machine-config-operator';
const LABELS = { name: OPERATOR_DEPLOYMENT, 'app.kubernetes.io/name': OPERATOR_DEPLOYMENT };
const CONTAINER = 'manager';
/** The image the simulated operator Pod names (the operator runs in the `wmco sim` process). */
const SIM_OPERATOR_IMAGE = 'localhost/wmco-ts/operator:sim';

function served(server: SimApiServer, apiVersion: string, kind: string): ResourceType {
  const t = server.registry.byKind(apiVersion, kind);
  if (!t) throw new Error(`the simulated cluster serves no ${apiVersion} ${kind}`);
  return t;
}

function ensureDeployment(server: SimApiServer, image: string): void {
  const t = served(server, 'apps/v1', 'Deployment');
  if (server.store.get(t, OPERATOR_NAMESPACE, OPERATOR_DEPLOYMENT)) return;
  server.writer.create(t, OPERATOR_NAMESPACE, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: OPERATOR_DEPLOYMENT, namespace: OPERATOR_NAMESPACE, labels: LABELS },
    spec: {
      replicas: 1,
      selector: { matchLabels: { name: OPERATOR_DEPLOYMENT } },
      template: { metadata: { labels: LABELS }, spec: { containers: [{ name: CONTAINER, image }] } },
    },
  });
  // Lives as long as the server's store: one per world, as the Deployment is created once.
  keepOperatorDeploymentStatus(server, t, OPERATOR_DEPLOYMENT);
}

/**
 * The operator of `wmco sim` as the cluster sees it: the Deployment of deploy/ (created once) and one
 * Running Pod per operator process, whose `manager` container's log (`kubectl logs`, pods/<name>/log) is
 * what the returned buffer receives.
 */
export function publishOperatorPod(
  server: SimApiServer,
  identity: string,
  image: string,
): ContainerLogBuffer {
  ensureDeployment(server, image);
  const t = served(server, 'v1', 'Pod');
  const name = `${OPERATOR_DEPLOYMENT}-${identity}`;
  if (!server.store.get(t, OPERATOR_NAMESPACE, name)) {
    const pod = server.writer.create(t, OPERATOR_NAMESPACE, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: OPERATOR_NAMESPACE, labels: LABELS },
      spec: { containers: [{ name: CONTAINER, image }] },
    });
    server.writer.update(
      { type: t, namespace: OPERATOR_NAMESPACE, name, subresource: 'status' },
      { ...pod, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
    );
  }
  const log = new ContainerLogBuffer();
  server.podLogs.set(OPERATOR_NAMESPACE, name, CONTAINER, log);
  return log;
}

/** The operator's log sink in the simulated world: its Pod's log, then `userSink` (when given). */
export function operatorPodLogSink(
  server: SimApiServer,
  identity: string,
  userSink?: (line: string) => void,
): (line: string) => void {
  const podLog = publishOperatorPod(server, identity, SIM_OPERATOR_IMAGE);
  return (line) => {
    podLog.write(line);
    userSink?.(line);
  };
}
