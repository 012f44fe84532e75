import { isObject, str, strMap, type JsonObject } from '../../apiserver/json.js';

/** machine-api's cluster ID label on Machines: the infrastructure name the ownership tags carry. */
export const CLUSTER_ID_LABEL = 'machine.openshift.io/cluster-api-cluster';

export interface MachineAddress {
  readonly type: string;
  readonly address: string;
}

/** What a machine-api cloud provider is asked to create for one Machine. */
export interface CloudVmRequest {
  readonly machineName: string;
  /** The private IPv4 the cloud gives the instance (the simulated guest's loopback address). */
  readonly address: string;
  /** The providerSpec's user data Secret (`userData`), undefined when there is none. */
  readonly userData: string | undefined;
  readonly windows: boolean;
  readonly labels: Readonly<Record<string, string>>;
  /** `spec.providerSpec.value`. */
  readonly providerSpec: JsonObject;
}

/** One instance created in a simulated cloud, and what its provider reports on the Machine. */
export interface CloudVm {
  /** `spec.providerID` as the provider writes it. */
  readonly providerId: string;
  /** `status.addresses` as the provider reports them. */
  readonly addresses: readonly MachineAddress[];
  /** The guest's computer name after first boot. */
  readonly computerName: string;
  /** The administrator account the cloud creates (Azure `osProfile.adminUsername`); else Administrator. */
  readonly username?: string;
  /** What the instance metadata service answers as the host name, where the platform has one. */
  readonly metadataHostname?: string;
  /** The script the guest's first-boot agent receives (the user data as it reaches the guest). */
  readonly bootScript: string | undefined;
  /** Routes the cloud's agent adds at boot; they survive a reboot only when the user data persisted them. */
  readonly metadataRoutes: readonly string[];
  /** Deletes the instance from the cloud (EC2 TerminateInstances, ARM DELETE, GCE instances.delete). */
  terminate(): void;
}

/** A machine-api provider's view of its cloud: create an instance for a Machine. */
export interface MachineCloud {
  readonly platform: string;
  create(req: CloudVmRequest): CloudVm;
}

export function specObject(spec: JsonObject, key: string): JsonObject {
  const v = spec[key];
  return isObject(v) ? v : {};
}

export function specString(spec: JsonObject, key: string): string | undefined {
  const v = str(spec[key]);
  return v === '' ? undefined : v;
}

/** A providerSpec map field (`tags` on Azure, `labels` on GCP). */
export function specMap(spec: JsonObject, key: string): Record<string, string> {
  return strMap(spec[key]);
}

/** The Machine's cluster ID (infrastructure name), from its label. */
export function clusterIdOf(req: CloudVmRequest): string | undefined {
  const id = req.labels[CLUSTER_ID_LABEL];
  return id === undefined || id === '' ? undefined : id;
}
