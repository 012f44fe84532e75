import type { V1Node } from '@kubernetes/client-node';
import { isNodeReady } from './node-ops.js';
import { enterPhase, type InstanceStatus, type InstanceStatusStore } from './instance-status.js';

/**
 * A node joined with this version and key, Ready and in no maintenance (its instance's plan is a drift
 * check), is Ready in its status too. The status can say otherwise when its write was lost: an operator
 * that loses its Lease mid-join abandons its writes after it patched the Node (`pnpm bench fleet` left 98
 * of 200 joined nodes `Connecting`), and its successor finds nothing to join that would write it. BYOH
 * entries and Machines both call this before their drift check. A node that is not Ready (its drift check
 * runs too) keeps the status it had: its kubelet may only be late.
 */
export async function statusReady(
  status: InstanceStatusStore,
  o: { readonly key: string; readonly node: V1Node; readonly extra: Partial<InstanceStatus> },
): Promise<void> {
  if (!isNodeReady(o.node)) return;
  const current = status.get(o.key);
  if (current?.phase === 'Ready') return;
  const extra = { ...o.extra, node: o.node.metadata?.name ?? '' };
  await status.set(enterPhase(current, { address: o.key, phase: 'Ready', now: new Date(), extra }));
}
