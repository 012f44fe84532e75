import { relatedToNode, type RelatedKind } from './node-graph.js';
import { nodeIdentity } from './node-identity.js';
import { NODE_RULES } from './node-rules.js';
import type { ObjectStore } from './object-store.js';
import { ruleAllows, type AuthzAttributes } from './rbac.js';
import type { TypeRegistry } from './type-registry.js';

/** An authorizer's answer: allow, or no opinion (the next authorizer decides), with the reason. */
export interface Decision {
  readonly allowed: boolean;
  readonly reason: string;
}

type Resource = NonNullable<AuthzAttributes['resource']>;

const ALLOW: Decision = { allowed: true, reason: '' };
const no = (reason = ''): Decision => ({ allowed: false, reason });
const LEASE_VERBS = ['get', 'create', 'update', 'patch', 'delete'];
const READ = ['get', 'list', 'watch'];

/** True when a field selector holds the term `<field>=<value>` (or `==`). */
function selects(selector: string | undefined, field: string, value: string): boolean {
  return (selector ?? '').split(',').some((term) => {
    const m = /^\s*([^\s!=]+)\s*(==|=)\s*(.*?)\s*$/.exec(term);
    return m?.[1] === field && m[3] === value;
  });
}

/**
 * kube-apiserver's Node authorizer (plugin/pkg/auth/authorizer/node/node_authorizer.go, read at v1.32/v1.33
 * with AuthorizeNodeWithSelectors on, as it is by default since v1.32 and locked since v1.34): for a node
 * identity (`system:node:<name>` in `system:nodes`) it subdivides Secrets, ConfigMaps, service-account
 * tokens, Leases, Nodes and Pods by their relation to the node, and judges every other kind by the static
 * `NODE_RULES`. It never denies: what it does not allow goes on to RBAC (`--authorization-mode=Node,RBAC`).
 */
export class NodeAuthorizer {
  constructor(
    private readonly store: ObjectStore,
    private readonly registry: TypeRegistry,
  ) {}

  decide(a: AuthzAttributes): Decision {
    const node = nodeIdentity(a.user);
    if (node === undefined) return no();
    if (node === '') return no(`unknown node for user "${a.user.name}"`);
    const sub = a.resource ? this.subdivided(node, a.verb, a.resource) : undefined;
    if (sub !== undefined) return sub;
    return NODE_RULES.some((r) => ruleAllows(r, a)) ? ALLOW : no();
  }

  private subdivided(node: string, verb: string, r: Resource): Decision | undefined {
    switch (`${r.group}/${r.resource}`) {
      case '/secrets':
      case '/configmaps':
        return this.readNamespaced(node, verb, r);
      case '/serviceaccounts':
        return this.createToken(node, verb, r);
      case 'coordination.k8s.io/leases':
        return lease(node, verb, r);
      case '/nodes':
        return nodeObject(node, verb, r);
      case '/pods':
        return this.pod(node, verb, r);
      default:
        return undefined;
    }
  }

  /** authorize(): an object with a path to the node in the graph. */
  private related(node: string, r: Resource): Decision {
    if (r.name === '') return no('No Object name found');
    const target = { kind: r.resource as RelatedKind, namespace: r.namespace, name: r.name };
    return relatedToNode(this.store, this.registry, target, node)
      ? ALLOW
      : no(`no relationship found between node '${node}' and this object`);
  }

  private readNamespaced(node: string, verb: string, r: Resource): Decision {
    if (!READ.includes(verb)) return no('can only read resources of this type');
    if (r.subresource !== '') return no('cannot read subresource');
    if (r.namespace === '') return no('can only read namespaced object of this type');
    return this.related(node, r);
  }

  private createToken(node: string, verb: string, r: Resource): Decision {
    if (verb !== 'create' || r.name === '')
      return no('can only create tokens for individual service accounts');
    if (r.subresource !== 'token') return no('can only create token subresource of serviceaccount');
    return this.related(node, r);
  }

  private pod(node: string, verb: string, r: Resource): Decision {
    if (r.subresource !== '') return podSubresource(verb, r.subresource);
    if (verb === 'get') return this.related(node, r);
    if (verb === 'create' || verb === 'delete') return ALLOW;
    if (verb !== 'list' && verb !== 'watch') return no();
    if (selects(r.fieldSelector, 'spec.nodeName', node)) return ALLOW;
    if (r.name !== '') return this.related(node, r);
    return no('can only list/watch pods with spec.nodeName field selector');
  }
}

/** A node's pod status updates and evictions: NodeRestriction limits them to its own pods. */
function podSubresource(verb: string, subresource: string): Decision {
  if (subresource === 'status') return ['update', 'patch'].includes(verb) ? ALLOW : no();
  return subresource === 'eviction' && verb === 'create' ? ALLOW : no();
}

function lease(node: string, verb: string, r: Resource): Decision {
  if (!LEASE_VERBS.includes(verb)) return no('can only get, create, update, patch, or delete a node lease');
  if (r.namespace !== 'kube-node-lease')
    return no('can only access leases in the "kube-node-lease" system namespace');
  // The name is not known on create: NodeRestriction checks it there.
  if (verb !== 'create' && r.name !== node)
    return no('can only access node lease with the same name as the requesting node');
  return ALLOW;
}

function nodeObject(node: string, verb: string, r: Resource): Decision {
  if (r.subresource === 'status') return ['update', 'patch'].includes(verb) ? ALLOW : no();
  if (r.subresource !== '') return no();
  // Writes are left to NodeRestriction, which limits them to the node's own object.
  if (['create', 'update', 'patch'].includes(verb)) return ALLOW;
  if (!READ.includes(verb)) return no();
  if (r.name === node) return ALLOW;
  if (r.name === '') return no(`node '${node}' cannot read all nodes, only its own Node object`);
  return no(`node '${node}' cannot read '${r.name}', only its own Node object`);
}
