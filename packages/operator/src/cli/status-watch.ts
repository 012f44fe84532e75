import { Watch, type KubeConfig } from '@kubernetes/client-node';
import { STATUS_CONFIGMAP } from '@wmco/core/internal';

/** What `wmco status -w` watches: the status ConfigMap and the Windows Nodes (their version, step). */
function watchedPaths(namespace: string): { path: string; query: Record<string, string> }[] {
  return [
    {
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/configmaps`,
      query: { fieldSelector: `metadata.name=${STATUS_CONFIGMAP}` },
    },
    { path: '/api/v1/nodes', query: { labelSelector: 'kubernetes.io/os=windows' } },
  ];
}

/** Runs `work` after each change, never twice at once; changes during a run make one more run after it. */
function coalesced(work: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = async (): Promise<void> => {
    running = true;
    do {
      again = false;
      await work();
    } while (again);
    running = false;
  };
  return () => {
    if (running) again = true;
    else void run();
  };
}

/**
 * Calls `changed` after each change of the status ConfigMap or a Windows Node, until `signal` aborts
 * (kubectl's `get -w`). A watch the server ends is started again, after a second when it ended with an
 * error; `changed` errors go to `warn`.
 */
export async function watchStatus(
  kc: KubeConfig,
  namespace: string,
  signal: AbortSignal | undefined,
  o: { readonly changed: () => Promise<void>; readonly warn: (s: string) => void },
): Promise<void> {
  const notify = coalesced(() => o.changed().catch((e: unknown) => o.warn(String(e))));
  const watch = new Watch(kc);
  const aborted = (): boolean => signal?.aborted === true;
  await Promise.all(
    watchedPaths(namespace).map(async ({ path, query }) => {
      while (!aborted()) {
        const failed = await new Promise<boolean>((resolve) => {
          const stop = (controller: AbortController): void => controller.abort();
          const added = (phase: string): void => {
            if (phase !== 'BOOKMARK') notify();
          };
          watch
            .watch(path, query, added, (err: unknown) => resolve(err !== undefined && err !== null))
            .then((controller) => signal?.addEventListener('abort', () => stop(controller), { once: true }))
            .catch(() => resolve(true));
        });
        if (failed && !aborted()) await new Promise((r) => setTimeout(r, 1000));
      }
    }),
  );
}
