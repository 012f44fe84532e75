import { Watch, type KubeConfig, type V1Node } from '@kubernetes/client-node';
import { LIFECYCLE_PHASE_ANNOTATION, REBOOT_REQUESTED_ANNOTATION } from '@wmco/core/internal';

const isReady = (node: V1Node): boolean =>
  node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

/** Why a node is not back in service yet after a reboot request, or undefined once it is. */
export function notBackYet(node: V1Node | undefined): string | undefined {
  if (node === undefined) return 'not seen yet';
  const a = node.metadata?.annotations ?? {};
  if (a[REBOOT_REQUESTED_ANNOTATION] !== undefined) return 'reboot requested, not started';
  const step = a[LIFECYCLE_PHASE_ANNOTATION];
  if (step !== undefined) return `step ${step}`;
  if (!isReady(node)) return 'not Ready';
  return node.spec?.unschedulable === true ? 'cordoned' : undefined;
}

/**
 * Waits until a node whose reboot was requested is back in service: the request taken and done (no
 * reboot-requested annotation, no lifecycle step), Ready and uncordoned. Follows the Node with a watch
 * (started again when the server ends it); fails after `timeoutMs` saying where the node is.
 */
export async function waitBackInService(
  kc: KubeConfig,
  name: string,
  o: { readonly timeoutMs: number; readonly signal?: AbortSignal | undefined },
): Promise<void> {
  let last: V1Node | undefined;
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => stop.abort(), o.timeoutMs);
  try {
    while (!stop.signal.aborted) {
      const done = await new Promise<boolean>((resolve) => {
        const seen = (_phase: string, node: V1Node): void => {
          last = node;
          if (notBackYet(node) === undefined) resolve(true);
        };
        const path = '/api/v1/nodes';
        new Watch(kc)
          .watch(path, { fieldSelector: `metadata.name=${name}` }, seen, () => resolve(false))
          .then((req) => {
            stop.signal.addEventListener('abort', () => req.abort(), { once: true });
            if (stop.signal.aborted) req.abort();
          })
          .catch(() => resolve(false));
      });
      if (done) return;
    }
    if (o.signal?.aborted === true) throw new Error(`stopped waiting for node ${name}`);
    throw new Error(
      `node ${name} is not back in service after ${Math.round(o.timeoutMs / 1000)}s (${notBackYet(last) ?? 'back'}); ` +
        'the reboot goes on: see kubectl get events --field-selector involvedObject.name=' +
        name,
    );
  } finally {
    clearTimeout(timer);
    stop.abort();
    o.signal?.removeEventListener('abort', onAbort);
  }
}
