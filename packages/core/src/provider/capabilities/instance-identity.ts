import { token } from '../token.js';

/** A cloud instance as its cloud API describes it. Plain data. */
export interface CloudInstance {
  /** The cloud's id: EC2 instance id, Azure VM resource id, GCE instance id. */
  readonly instanceId: string;
  /** The instance name as the cloud knows it (EC2: the instance id; Azure and GCE: the VM name). */
  readonly name: string;
  /** The Kubernetes `spec.providerID`: `aws:///<zone>/<id>`, `azure://<resource id>`, `gce://<project>/<zone>/<name>`. */
  readonly providerId: string;
  /** Availability zone (AWS, GCP) or the Azure zone/location. */
  readonly zone: string;
  /** The private IPv4 address the instance was found by. */
  readonly privateIp: string;
  /** The name the cloud gives the instance in its private DNS (EC2 `privateDnsName`, GCE/Azure VM name). */
  readonly privateDnsName: string;
  /** Tags (AWS, Azure) or labels (GCP). */
  readonly tags: Readonly<Record<string, string>>;
  /**
   * The network the instance's interface with `privateIp` is in: the EC2 VPC ID, the Azure virtual network's
   * resource ID, the GCE VPC network (`projects/<project>/global/networks/<name>`). Since contract v1 (minor
   * addition); undefined only where the cloud did not say.
   */
  readonly network?: string;
}

/**
 * Finds the cloud instance behind a BYOH address through the cloud SDK: an identity source independent
 * of what the host says about itself. Since contract v1 (minor addition).
 *
 * Private ranges overlap between networks, so `identify` answers only with an instance in the cluster's
 * own network (AWS VPC, Azure virtual network, GCE VPC network), as the provider learns it from the cluster
 * or the cloud. It resolves undefined when no instance has that private address; rejects with
 * `InstanceOutsideClusterNetworkError` when instances have it only outside the cluster's network (since
 * contract v1, minor addition); with `CloudNotConfiguredError` when the cluster has no credentials for the
 * cloud or its network cannot be told; or with `CloudApiError` when the cloud refuses (unauthorized, or
 * still throttled after the SDK's retries).
 */
export interface InstanceIdentity {
  identify(address: string): Promise<CloudInstance | undefined>;
}
export const InstanceIdentity = token<InstanceIdentity>('platform.instance-identity');
