import type { ServiceStartContext } from '../service-behaviour.js';
import { KUBELET_PORT, startKubeletLogServer, stopKubeletLogServer } from './kubelet-log-server.js';

const LISTENER = 'kubelet';

/**
 * Starts the kubelet's HTTPS server once its serving certificate is issued (the real kubelet waits for
 * it the same way with `serverTLSBootstrap`), records it in the host's `listeners`, and closes it when
 * the service stops. An address it cannot bind leaves the kubelet running without it; `listeners` says why.
 */
export async function serveNodeLogs(
  ctx: ServiceStartContext,
  tls: { address: string; certPem: string; keyPem: string; clientCaPem: string },
): Promise<void> {
  if (ctx.signal.aborted) return;
  let server;
  try {
    server = await startKubeletLogServer({ ...tls, files: ctx.files });
  } catch (e) {
    const reason = `cannot serve: ${e instanceof Error ? e.message : String(e)}`;
    ctx.host.listeners.set(LISTENER, { state: 'not-serving', reason });
    return;
  }
  ctx.host.listeners.set(LISTENER, {
    state: 'serving',
    address: tls.address,
    port: KUBELET_PORT,
    certPem: tls.certPem,
  });
  const stop = (): void => {
    if (ctx.host.listeners.get(LISTENER)?.state === 'serving') ctx.host.listeners.delete(LISTENER);
    void stopKubeletLogServer(server);
  };
  if (ctx.signal.aborted) stop();
  else ctx.signal.addEventListener('abort', stop, { once: true });
}
