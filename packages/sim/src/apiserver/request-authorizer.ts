import { NodeAuthorizer, type Decision } from './node-authorizer.js';
import { nodeIdentity } from './node-identity.js';
import type { ObjectStore } from './object-store.js';
import { RbacAuthorizer, type AuthzAttributes } from './rbac.js';
import type { TypeRegistry } from './type-registry.js';

/**
 * The server's authorizer chain, as `--authorization-mode=Node,RBAC`: the Node authorizer first, then
 * RBAC; the first that allows wins, and a refusal carries the reasons given (the union authorizer's).
 * With `rbac` off (the simulated worlds' default) users that are not nodes may do anything, but a node
 * identity still gets only what the Node authorizer and the RBAC bindings give it, as in every real
 * cluster.
 */
export class RequestAuthorizer {
  private readonly node: NodeAuthorizer;
  private readonly rbacRules: RbacAuthorizer;

  constructor(
    store: ObjectStore,
    registry: TypeRegistry,
    public rbac: boolean,
  ) {
    this.node = new NodeAuthorizer(store, registry);
    this.rbacRules = new RbacAuthorizer(store, registry);
  }

  /** Whether the request may go on (tests wrap this to record requests). */
  allowed(a: AuthzAttributes): boolean {
    return this.decide(a).allowed;
  }

  decide(a: AuthzAttributes): Decision {
    const byNode = this.node.decide(a);
    if (byNode.allowed) return byNode;
    if (!this.rbac && nodeIdentity(a.user) === undefined) return { allowed: true, reason: '' };
    if (this.rbacRules.allowed(a)) return { allowed: true, reason: '' };
    return { allowed: false, reason: byNode.reason };
  }
}
