import { token } from '../token.js';

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
}
export const CloudContext = token<CloudContext>('core.cloud-context');
