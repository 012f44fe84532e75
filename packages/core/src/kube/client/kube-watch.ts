import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { WatchPort } from '../watch-port.js';

/** How client-node reports that its inactivity timer ended a request. */
function isTimeout(err: unknown): boolean {
  return err instanceof Error && err.name === 'TimeoutError';
}

/**
 * The WatchPort over client-node's Watch (one streaming GET per watch). client-node ends a watch on which
 * nothing arrived for `idleTimeoutMs` (its requestTimeoutMs, 30 s) with a TimeoutError. A real API server
 * sends nothing on an idle watch, bookmarks requested or not, for a minute or more, so once the stream
 * was open that end is normal and is reported as a clean close (the informer watches again from its last
 * resourceVersion, with no back-off). A timeout before the response arrived is still an error.
 */
export function kubeWatch(kc: KubeConfig, idleTimeoutMs?: number): WatchPort {
  const watch = new Watch(kc);
  // requestTimeoutMs is private in client-node's typings but a plain field at run time; tests shorten it.
  if (idleTimeoutMs !== undefined) Object.assign(watch, { requestTimeoutMs: idleTimeoutMs });
  return async (path, query, onEvent, onDone) => {
    let open = false;
    const controller = await watch.watch(
      path,
      query,
      (type, obj) => onEvent(type, obj),
      (err: unknown) => onDone(open && isTimeout(err) ? undefined : err),
    );
    open = true;
    return { abort: () => controller.abort() };
  };
}
