import { AuthenticationV1Api, AuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';

/** Who a bearer token belongs to, as the API server's TokenReview says. */
export interface ReviewedUser {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The API server's answers for a request to `/metrics`: authentication, then authorisation. */
export interface MetricsAccess {
  /** The token's user, or undefined when the API server does not know the token. */
  authenticate(token: string): Promise<ReviewedUser | undefined>;
  /** Whether the user may `get` the non-resource URL `path`. */
  authorize(user: ReviewedUser, path: string): Promise<boolean>;
}

/**
 * TokenReview and SubjectAccessReview (nonResourceAttributes `{path, verb: get}`), as controller-runtime's
 * `filters.WithAuthenticationAndAuthorization` and kube-rbac-proxy ask them. Nothing is cached here: the
 * operator wraps it in CachedMetricsAccess (answers kept briefly, reviews rate-limited).
 */
export function kubeMetricsAccess(kc: KubeConfig): MetricsAccess {
  const authn = kc.makeApiClient(AuthenticationV1Api);
  const authz = kc.makeApiClient(AuthorizationV1Api);
  return {
    async authenticate(token) {
      const review = await authn.createTokenReview({
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
      });
      const user = review.status?.user;
      if (review.status?.authenticated !== true || !user?.username) return undefined;
      return {
        username: user.username,
        groups: user.groups ?? [],
        ...(user.uid ? { uid: user.uid } : {}),
        ...(user.extra ? { extra: user.extra } : {}),
      };
    },
    async authorize(user, path) {
      const review = await authz.createSubjectAccessReview({
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: {
            user: user.username,
            groups: [...user.groups],
            ...(user.uid ? { uid: user.uid } : {}),
            ...(user.extra
              ? { extra: Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]])) }
              : {}),
            nonResourceAttributes: { path, verb: 'get' },
          },
        },
      });
      return review.status?.allowed === true;
    },
  };
}
