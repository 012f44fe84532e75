import type { V1Node } from '@kubernetes/client-node';
import type { HostState } from '../host/protocol/index.js';
import type { WindowsHost } from '../host/windows-host.js';
import { nodeEventRef, type JoinDeps } from './join-deps.js';

/** The Go WMCO's node daemon (WICD), a Windows service on every node it configured (reference §1.5, §1.6). */
export const UPSTREAM_DAEMON_SERVICE = 'windows-instance-config-daemon';
/** The reason of the Normal event on a Node whose Go WMCO daemon a takeover stopped and deleted. */
export const UPSTREAM_DAEMON_REMOVED = 'UpstreamDaemonRemoved';

/**
 * Stops and deletes the Go WMCO's WICD service on an adopted host (seen in `state`, one observe of it), before
 * this operator writes its version on the Node. Left running, WICD would go on reconciling the node's services
 * from the `windows-services-<desired-version>` ConfigMap (which this operator publishes too), write the Node's
 * `version` annotation, and rotate a client certificate with an identity the operator no longer approves.
 * Nothing else on the host is touched: the services WICD made stay running. True when it was there.
 */
export async function removeUpstreamDaemon(
  deps: Pick<JoinDeps, 'events' | 'logger'>,
  host: WindowsHost,
  state: HostState,
  node: V1Node,
): Promise<boolean> {
  const wicd = state.services.find((s) => s.name.toLowerCase() === UPSTREAM_DAEMON_SERVICE);
  if (wicd === undefined) return false;
  await host.apply({ steps: [{ kind: 'deleteService', name: wicd.name }] });
  const name = node.metadata?.name ?? '';
  deps.logger.info({ node: name, address: host.address, was: wicd.state }, 'deleted the Go WMCO daemon');
  await deps.events.record(
    nodeEventRef(node),
    'Normal',
    UPSTREAM_DAEMON_REMOVED,
    `Stopped and deleted the Go WMCO's ${UPSTREAM_DAEMON_SERVICE} service (it was ${wicd.state}) on node ${name} (${host.address}): this operator now does its work`,
  );
  return true;
}
