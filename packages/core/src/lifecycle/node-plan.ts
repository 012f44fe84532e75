import type { WindowsHost } from '../host/windows-host.js';
import { observeAndPlan, type ObservedPlan } from '../converge/converge-round.js';
import { nodeHostSpec, nodeScripts, variableScripts, type NodeDesign } from '../desired/node-spec.js';

/**
 * What converging a Ready node would change, from one observe, changing nothing: only the pre-scripts
 * that yield a value are evaluated (the ones run for their effect, such as kube-proxy's network-conf.ps1,
 * write files and are left out). `wmco plan` and the operator's drift check both look this way.
 */
export function planNode(host: WindowsHost, design: NodeDesign, node: unknown): Promise<ObservedPlan> {
  return observeAndPlan(host, {
    specFor: (values) => nodeHostSpec(design, values, node),
    scripts: variableScripts(nodeScripts(design, node)),
  });
}
