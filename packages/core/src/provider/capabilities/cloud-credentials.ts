import { CloudNotConfiguredError } from '../errors.js';
import type { CloudContext } from './cloud-context.js';

/** Where a cloud capability takes its credentials from (`wmco run --cloud-credentials`). */
export type CloudCredentialsMode = 'minted' | 'root';

/**
 * The credentials a `CloudContext` hands the cloud capabilities. `minted` (the default): the Secret the
 * cloud credential operator writes, in the operator's namespace, for the operator's `CredentialsRequest`
 * of the platform, holding only the permissions listed there. `root`: the installer's root Secret in
 * kube-system, only when the admin chose it.
 */
export interface CloudCredentials {
  readonly mode: CloudCredentialsMode;
  /** The operator's namespace: the `spec.secretRef.namespace` of its CredentialsRequests. */
  readonly namespace: string;
}

/** The namespace the operator runs in unless told otherwise, where minted credentials are read by default. */
export const DEFAULT_OPERATOR_NAMESPACE = 'openshift-windows-machine-config-operator';
/** The `spec.secretRef.name` of every CredentialsRequest the operator ships (one per cloud, one applies). */
export const MINTED_CREDENTIALS_SECRET = 'windows-machine-config-operator-cloud-credentials';
/** Where CredentialsRequests live (the cloud credential operator's namespace). */
export const CREDENTIALS_REQUEST_NAMESPACE = 'openshift-cloud-credential-operator';

/** The name of the operator's CredentialsRequest for one cloud (`aws`, `azure`, `gcp`). */
export function credentialsRequestName(providerId: string): string {
  return `windows-machine-config-operator-${providerId}`;
}

export interface SecretRef {
  readonly namespace: string;
  readonly name: string;
}

/** The Secret a capability reads, and how to name where it comes from in an error. */
export interface CredentialsSecret extends SecretRef {
  readonly mode: CloudCredentialsMode;
  /** `Secret ns/name`, for messages. */
  readonly describe: string;
  /** Where the Secret comes from: the CredentialsRequest it is minted from, or the root-mode setting. */
  readonly origin: string;
}

/** Picks the minted Secret, or the root Secret `root` when the context's mode is `root`. */
export function credentialsSecret(
  ctx: Pick<CloudContext, 'credentials'>,
  providerId: string,
  root: SecretRef,
): CredentialsSecret {
  const mode = ctx.credentials?.mode ?? 'minted';
  if (mode === 'root')
    return {
      ...root,
      mode,
      describe: `Secret ${root.namespace}/${root.name}`,
      origin: "the installer's root credentials, read because of --cloud-credentials=root",
    };
  const namespace = ctx.credentials?.namespace ?? DEFAULT_OPERATOR_NAMESPACE;
  const request = `${CREDENTIALS_REQUEST_NAMESPACE}/${credentialsRequestName(providerId)}`;
  return {
    namespace,
    name: MINTED_CREDENTIALS_SECRET,
    mode,
    describe: `Secret ${namespace}/${MINTED_CREDENTIALS_SECRET}`,
    origin: `minted by the cloud credential operator from CredentialsRequest ${request}`,
  };
}

/**
 * Reads the selected credentials Secret. A missing Secret is a `CloudNotConfiguredError` naming the
 * Secret and, when minted, the CredentialsRequest that should have produced it; values are never shown.
 */
export async function readCredentialsSecret(
  ctx: CloudContext,
  providerId: string,
  root: SecretRef,
): Promise<{ readonly data: Readonly<Record<string, string>>; readonly secret: CredentialsSecret }> {
  const secret = credentialsSecret(ctx, providerId, root);
  const data = await ctx.readSecret(secret.namespace, secret.name);
  if (data) return { data, secret };
  const hint =
    secret.mode === 'minted'
      ? '; check that CredentialsRequest exists and is provisioned (oc get credentialsrequest -n openshift-cloud-credential-operator), or run with --cloud-credentials=root'
      : '';
  throw new CloudNotConfiguredError(providerId, `${secret.describe} not found (${secret.origin})${hint}`);
}
