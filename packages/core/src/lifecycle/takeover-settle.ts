import type { V1Node } from '@kubernetes/client-node';
import { designNode } from '../desired/node-spec.js';
import type { WindowsHost } from '../host/windows-host.js';
import { Annotations } from '../identity/node-metadata.js';
import type { JoinDeps } from './join-deps.js';
import { patchNodeMetadata } from './node-ops.js';
import { planNode } from './node-plan.js';
import { removeUpstreamDaemon } from './takeover-daemon.js';
import type { PlanStep } from '../host/protocol/index.js';

/** Steps that change nothing a workload uses (old hybrid-overlay client certificates go, as WICD does). */
const housekeeping = (s: PlanStep): boolean => s.kind === 'removeClientCertificate';

/** How an adopted node goes on: its Node now, whether its host already matched, and the words for its event. */
export interface SettledTakeover {
  readonly node: V1Node;
  readonly matches: boolean;
  readonly how: string;
}

/**
 * Compares an adopted host with this version's desired state (a real observe and plan, as `wmco plan`),
 * first deleting the Go WMCO's daemon (`removeUpstreamDaemon`): a host that matches gets this version on its
 * Node and nothing is restarted (old hybrid-overlay client certificates are pruned, which restarts nothing);
 * one that differs keeps its old version, so the normal upgrade follows under the disruption budget. `what`
 * names the host in the event (`host` for BYOH, `VM` for a Machine).
 */
export async function settleTakeover(
  deps: JoinDeps,
  host: WindowsHost,
  annotated: V1Node,
  what: 'host' | 'VM',
): Promise<SettledTakeover> {
  const look = await planNode(host, designNode(deps, await deps.facts()), annotated);
  await removeUpstreamDaemon(deps, host, look.state, annotated);
  const chores = look.plan.steps.filter(housekeeping);
  const steps = look.plan.steps.length - chores.length;
  if (steps > 0) {
    const how = `it differs from version ${deps.version} in ${steps} step(s): it is upgraded under the disruption budget`;
    return { node: annotated, matches: false, how };
  }
  if (chores.length > 0) await host.apply({ steps: chores });
  const node = await patchNodeMetadata(deps.core, annotated.metadata?.name ?? '', {
    annotations: { [Annotations.version]: deps.version, [Annotations.desiredVersion]: deps.version },
  });
  return {
    node,
    matches: true,
    how: `the ${what} already matches version ${deps.version}: nothing was restarted`,
  };
}
