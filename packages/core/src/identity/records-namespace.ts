import type { V1Node } from '@kubernetes/client-node';

/**
 * The namespace whose node records name this Node, written on a BYOH Node when its join claims it: which
 * of the controllers sharing a cluster (the operator, an embedding controller) joined it. It never makes
 * a controller act on a Node: that takes the controller's own record (ADR 0035). It only keeps a
 * controller from reporting another controller's Nodes as unrecorded or unmigrated.
 */
export const RECORDS_NAMESPACE_ANNOTATION = 'windowsmachineconfig.openshift.io/records-namespace';

/** Whether the Node says it was joined by the controller of another namespace (absent: joined before). */
export function recordedElsewhere(node: V1Node, namespace: string): boolean {
  const other = node.metadata?.annotations?.[RECORDS_NAMESPACE_ANNOTATION];
  return other !== undefined && other !== '' && other !== namespace;
}
