import { token } from '../token.js';
import type { CloudCredentials } from './cloud-credentials.js';

/**
 * What core hands the cloud capabilities (`InstanceIdentity`, `InstanceTagging`, `FirewallFacts`): the
 * cluster's facts and a reader for the Secrets OpenShift's cloud credential operator delivers. Core (or
 * the operator) registers it; providers only resolve it. Values are read when a capability is called,
 * never at construction, so a provider stays free of I/O until then.
 */
export interface CloudContext {
  /** `infrastructure/cluster .status.infrastructureName`, the `<infraID>` in ownership tags. */
  readonly infrastructureName: string;
  /**
   * The platform's block of `infrastructure/cluster .status.platformStatus` (for AWS `{region,
   * serviceEndpoints}`, for Azure `{resourceGroupName, armEndpoint, cloudName}`, for GCP `{projectID,
   * region, serviceEndpoints}`), as the cluster reports it.
   */
  readonly platformStatus: Readonly<Record<string, unknown>>;
  /** Extra trusted CA certificates (PEM) for the cloud endpoints, e.g. a proxy's or a private cloud's. */
  readonly caBundle?: string;
  /** The data of a Secret, decoded to UTF-8 strings; undefined when the Secret does not exist. */
  readSecret(namespace: string, name: string): Promise<Readonly<Record<string, string>> | undefined>;
  /**
   * How long one request to the cloud's API may take before it is abandoned (and retried, as the SDK's
   * retry policy says); `CLOUD_REQUEST_TIMEOUT_MS` when unset.
   */
  readonly requestTimeoutMs?: number;
  /**
   * Which credentials Secret the capabilities read (`readCredentialsSecret`): the minted one in the
   * operator's namespace when unset, the installer's root Secret only with `mode: 'root'`.
   */
  readonly credentials?: CloudCredentials;
}
export const CloudContext = token<CloudContext>('core.cloud-context');

/**
 * The default time one cloud API request may take. The SDKs wait far longer by default (EC2: 15 minutes
 * of socket silence; Azure: no limit), so an endpoint that accepts a request and never answers would hold
 * a join for as long; each provider abandons the request after this instead.
 */
export const CLOUD_REQUEST_TIMEOUT_MS = 30_000;

/** The request timeout of `ctx`: its own, or the default. */
export function cloudRequestTimeoutMs(ctx: Pick<CloudContext, 'requestTimeoutMs'>): number {
  return ctx.requestTimeoutMs ?? CLOUD_REQUEST_TIMEOUT_MS;
}
