/** OpenShift's node-bootstrapper service account (reference §1.9 "Who sends the bootstrap CSR"). */
export const OPENSHIFT_NODE_BOOTSTRAPPER =
  'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper';
const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
const BOOTSTRAPPERS_GROUP = 'system:bootstrappers';

/**
 * Who may request a new kubelet client certificate: on OpenShift exactly the `node-bootstrapper` service
 * account whose token the operator puts in the bootstrap kubeconfig; on other clusters, a bootstrap-token
 * user (`system:bootstrap:<id>`) in a configured group (`system:bootstrappers` or one of its subgroups).
 */
export type BootstrapIdentity =
  | { readonly kind: 'service-account'; readonly username: string }
  | { readonly kind: 'bootstrap-token-group'; readonly group: string };

export const openShiftBootstrapIdentity: BootstrapIdentity = {
  kind: 'service-account',
  username: OPENSHIFT_NODE_BOOTSTRAPPER,
};

/** The identity for a configured bootstrap-token group; throws when the group is not a bootstrap group. */
export function bootstrapTokenIdentity(group: string): BootstrapIdentity {
  if (group !== BOOTSTRAPPERS_GROUP && !group.startsWith(`${BOOTSTRAPPERS_GROUP}:`)) {
    throw new Error(
      `bootstrap group ${JSON.stringify(group)} must be ${BOOTSTRAPPERS_GROUP} or ${BOOTSTRAPPERS_GROUP}:<name>`,
    );
  }
  return { kind: 'bootstrap-token-group', group };
}

/** Why this requester may not ask for a kubelet client certificate; undefined when it may. */
export function bootstrapRequesterProblem(
  identity: BootstrapIdentity,
  requester: { readonly username: string; readonly groups: readonly string[] },
): string | undefined {
  if (identity.kind === 'service-account') {
    return requester.username === identity.username
      ? undefined
      : `requested by ${requester.username}, not by the node bootstrapper ${identity.username}`;
  }
  if (!requester.username.startsWith(BOOTSTRAP_USER_PREFIX))
    return `requested by ${requester.username}, not by a bootstrap token`;
  return requester.groups.includes(identity.group)
    ? undefined
    : `requested by ${requester.username}, which is not in ${identity.group}`;
}

/** A short description for logs and docs. */
export function describeBootstrapIdentity(identity: BootstrapIdentity): string {
  return identity.kind === 'service-account' ? identity.username : `bootstrap tokens in ${identity.group}`;
}
