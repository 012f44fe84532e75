import { CoreV1Api, type KubeConfig, type V1Secret } from '@kubernetes/client-node';
import {
  bootstrapRequesterProblem,
  describeBootstrapIdentity,
  type BootstrapIdentity,
} from '@wmco/core/internal';

const NAMESPACE = 'openshift-machine-config-operator';
const NAME = 'node-bootstrapper-token';
const WHERE = `secret ${NAMESPACE}/${NAME}`;
const BOOTSTRAPPERS = 'system:bootstrappers';

/** Who a token authenticates as, and how that was found out. */
interface TokenIdentity {
  readonly username: string;
  readonly groups: readonly string[];
  /** For messages: "bootstrap token abc123 (kube-system/bootstrap-token-abc123)". */
  readonly source: string;
  /** The `--bootstrap-group` that makes the operator accept it (undefined: none, OpenShift's default). */
  readonly flag: string | undefined;
}

const decode = (v: string | undefined): string | undefined =>
  v === undefined ? undefined : Buffer.from(v, 'base64').toString('utf8');

async function readSecret(core: CoreV1Api, namespace: string, name: string): Promise<V1Secret | undefined> {
  try {
    return await core.readNamespacedSecret({ name, namespace });
  } catch (e) {
    if ((e as { code?: unknown }).code === 404) return undefined;
    throw e;
  }
}

/**
 * A bootstrap token `<id>.<secret>` authenticates as `system:bootstrap:<id>` in system:bootstrappers and
 * the `system:bootstrappers:*` groups of its Secret's `auth-extra-groups`; a string says why it cannot.
 */
async function bootstrapTokenUser(core: CoreV1Api, id: string): Promise<TokenIdentity | string> {
  const name = `bootstrap-token-${id}`;
  const s = await readSecret(core, 'kube-system', name);
  if (!s) return `its bootstrap token ${id} has no Secret kube-system/${name}, so the API server refuses it`;
  const extra = (decode(s.data?.['auth-extra-groups']) ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g.startsWith(`${BOOTSTRAPPERS}:`));
  return {
    username: `system:bootstrap:${id}`,
    groups: [BOOTSTRAPPERS, ...extra],
    source: `bootstrap token ${id} (kube-system/${name}) in ${[BOOTSTRAPPERS, ...extra].join(', ')}`,
    flag: extra.at(-1) ?? BOOTSTRAPPERS,
  };
}

/** A service account token (a JWT) authenticates as its `sub` claim; undefined when it is not one. */
function serviceAccountUser(token: string): TokenIdentity | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      sub?: unknown;
    };
    const sub = claims.sub;
    if (typeof sub !== 'string' || !sub.startsWith('system:serviceaccount:')) return undefined;
    return { username: sub, groups: [], source: `a service account token of ${sub}`, flag: undefined };
  } catch {
    return undefined;
  }
}

async function tokenUser(core: CoreV1Api, token: string): Promise<TokenIdentity | string | undefined> {
  const bootstrap = /^([a-z0-9]{6})\.[a-z0-9]{16}$/.exec(token);
  if (bootstrap) return bootstrapTokenUser(core, bootstrap[1] ?? '');
  return serviceAccountUser(token);
}

const NO_CA =
  `${WHERE} has a token but no ca.crt: the operator puts that CA (the API server's, PEM) in the ` +
  "kubelets' bootstrap kubeconfig and cannot join a host without it. Add ca.crt to the Secret, or " +
  'delete the Secret and run with --seed to create one';

function mismatch(user: TokenIdentity, expected: BootstrapIdentity): string {
  const wanted =
    expected.kind === 'bootstrap-token-group'
      ? `${describeBootstrapIdentity(expected)} (--bootstrap-group ${expected.group})`
      : `${describeBootstrapIdentity(expected)} (no --bootstrap-group)`;
  const instead =
    user.flag === undefined ? 'run without --bootstrap-group' : `run with --bootstrap-group ${user.flag}`;
  const reseed =
    expected.kind === 'bootstrap-token-group'
      ? `a bootstrap token in ${expected.group}`
      : 'the node-bootstrapper';
  return (
    `${WHERE} holds ${user.source}, but this run's operator approves kubelet client certificates only for ` +
    `${wanted}: the kubelets would bootstrap as ${user.username} and the hosts would never join. ` +
    `Either ${instead}, or delete ${WHERE} and run again with --seed to create ${reseed} ` +
    '(a run with --cleanup deletes the token Secrets it seeded when it ends)'
  );
}

/**
 * Why the cluster's existing node-bootstrapper token cannot bootstrap kubelets that this run's operator
 * accepts: no `ca.crt` (the operator puts that CA in the kubelets' bootstrap kubeconfig and fails without
 * it), a bootstrap token without its kube-system Secret, or an identity outside `expected` (a token
 * seeded by an earlier run for another `--bootstrap-group`). Undefined when it can, when the Secret does
 * not exist, or while it holds no token yet (a service account token controller fills it).
 */
export async function bootstrapSecretProblem(
  kc: KubeConfig,
  expected: BootstrapIdentity,
): Promise<string | undefined> {
  const core = kc.makeApiClient(CoreV1Api);
  const data = (await readSecret(core, NAMESPACE, NAME))?.data ?? {};
  const token = decode(data['token']) ?? '';
  if (token === '') return undefined;
  if (!data['ca.crt']) return NO_CA;
  const user = await tokenUser(core, token);
  if (user === undefined) return undefined;
  if (typeof user === 'string') return `${WHERE}: ${user}`;
  return bootstrapRequesterProblem(expected, user) === undefined ? undefined : mismatch(user, expected);
}
