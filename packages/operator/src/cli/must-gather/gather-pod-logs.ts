import { AppsV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { describeApiError } from '@wmco/core/internal';
import type { GatherOutput } from './gather-output.js';

/** The operator's Deployment (deploy/07-deployment.yaml, the Helm chart and the bundle use this name). */
export const OPERATOR_DEPLOYMENT = 'windows-machine-config-operator';

/** `a=b,c=d` from a Deployment's `spec.selector.matchLabels`. */
function selectorOf(labels: Readonly<Record<string, string>>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

async function unavailable(out: GatherOutput, ns: string, reason: string): Promise<void> {
  out.note(`operator pod logs: ${reason}`);
  await out.file(
    `namespaces/${ns}/pods/UNAVAILABLE.txt`,
    `The operator's pod logs could not be collected: ${reason}\n`,
  );
}

/**
 * The operator Deployment and the logs of its pods (each container's current log, at most `capBytes`), in `namespaces/<ns>/pods/<pod>/<container>/logs/`. When the
 * Deployment or its logs cannot be read, `pods/UNAVAILABLE.txt` says why.
 */
export async function gatherPodLogs(
  out: GatherOutput,
  kc: KubeConfig,
  ns: string,
  capBytes: number,
): Promise<void> {
  const selector = await operatorSelector(out, kc, ns);
  if (selector === undefined) return;
  const core = kc.makeApiClient(CoreV1Api);
  const pods = await core
    .listNamespacedPod({ namespace: ns, labelSelector: selector })
    .catch(() => undefined);
  if (pods === undefined || pods.items.length === 0) return unavailable(out, ns, `no pods match ${selector}`);
  for (const pod of pods.items) {
    const name = pod.metadata?.name ?? '';
    for (const c of pod.spec?.containers ?? [])
      await containerLog(out, core, { ns, pod: name, container: c.name, capBytes });
  }
}

/** The Deployment, saved, and its pod selector; undefined (and noted) when it cannot be read. */
async function operatorSelector(out: GatherOutput, kc: KubeConfig, ns: string): Promise<string | undefined> {
  try {
    const d = await kc
      .makeApiClient(AppsV1Api)
      .readNamespacedDeployment({ name: OPERATOR_DEPLOYMENT, namespace: ns });
    const { managedFields: _dropped, ...metadata } = d.metadata ?? {};
    await out.yaml(`namespaces/${ns}/apps/deployments/${OPERATOR_DEPLOYMENT}.yaml`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      ...d,
      metadata,
    });
    return selectorOf(d.spec?.selector.matchLabels ?? {});
  } catch (e) {
    await unavailable(out, ns, `deployment ${ns}/${OPERATOR_DEPLOYMENT}: ${describeApiError(e)}`);
    return undefined;
  }
}

async function containerLog(
  out: GatherOutput,
  core: CoreV1Api,
  c: { ns: string; pod: string; container: string; capBytes: number },
): Promise<void> {
  try {
    const text = await core.readNamespacedPodLog({
      name: c.pod,
      namespace: c.ns,
      container: c.container,
      limitBytes: c.capBytes,
    });
    await out.file(`namespaces/${c.ns}/pods/${c.pod}/${c.container}/logs/current.log`, String(text));
  } catch (e) {
    await unavailable(out, c.ns, `pod ${c.pod} container ${c.container}: ${describeApiError(e)}`);
  }
}
