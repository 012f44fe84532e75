import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { WatchPort } from '../watch-port.js';

/** The WatchPort over client-node's Watch (one streaming GET per watch). */
export function kubeWatch(kc: KubeConfig): WatchPort {
  const watch = new Watch(kc);
  return async (path, query, onEvent, onDone) => {
    const controller = await watch.watch(path, query, (type, obj) => onEvent(type, obj), onDone);
    return { abort: () => controller.abort() };
  };
}
