import type { RequestUser } from './request-user.js';

const PREFIX = 'system:node:';

/**
 * Who a request comes from, as kube-apiserver's default node identifier (pkg/auth/nodeidentifier) tells
 * it: a user named `system:node:<name>` in the group `system:nodes` is the node `<name>` (possibly '',
 * which the Node authorizer and NodeRestriction refuse); anyone else is not a node (undefined).
 */
export function nodeIdentity(user: RequestUser): string | undefined {
  if (!user.name.startsWith(PREFIX) || !user.groups.includes('system:nodes')) return undefined;
  return user.name.slice(PREFIX.length);
}
