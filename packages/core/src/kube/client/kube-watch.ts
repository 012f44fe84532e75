import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { WatchPort } from '../watch-port.js';

/** How client-node reports that its inactivity timer ended a request. */
function isTimeout(err: unknown): boolean {
  return err instanceof Error && err.name === 'TimeoutError';
}

/**
 * How long a watch may stay silent before the client ends it: two and a half times the API server's
 * bookmark period (one minute, `defaultBookmarkFrequency` in the watch cache), so a healthy idle watch
 * is never ended by the client, and a dead connection is noticed within minutes (the informer's silence
 * watchdog, 5 min, is the other net). client-node's own 30 s ended every idle watch twice a minute: with
 * a score of informers that was about 40 watch requests a minute (`pnpm bench scale`), where a client-go
 * operator watches again only when the server ends a watch (its `timeoutSeconds`, 5-10 min).
 */
export const WATCH_IDLE_TIMEOUT_MS = 150_000;

/**
 * The WatchPort over client-node's Watch (one streaming GET per watch). client-node ends a watch on which
 * nothing arrived for `idleTimeoutMs` (its requestTimeoutMs) with a TimeoutError. A real API server may
 * send nothing on an idle watch for a minute or more, so once the stream was open that end is normal and
 * is reported as a clean close (the informer watches again from its last resourceVersion, with no
 * back-off). A timeout before the response arrived is still an error.
 */
export function kubeWatch(kc: KubeConfig, idleTimeoutMs = WATCH_IDLE_TIMEOUT_MS): WatchPort {
  const watch = new Watch(kc);
  // requestTimeoutMs is private in client-node's typings but a plain field at run time; tests shorten it.
  Object.assign(watch, { requestTimeoutMs: idleTimeoutMs });
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
