import type { CustomObjectsApi } from '@kubernetes/client-node';
/** machine.openshift.io names the Machine source reads (reference §3.1). */
export const MachineLabels = {
  osId: 'machine.openshift.io/os-id',
  ignore: 'windowsmachineconfig.openshift.io/ignore',
} as const;
export const MACHINE_API_NAMESPACE = 'openshift-machine-api';
export const MACHINE_GROUP = 'machine.openshift.io';
export const MACHINE_VERSION = 'v1beta1';
/** The Windows Machines the operator watches (upstream's selector). */
export const WINDOWS_MACHINE_SELECTOR = `${MachineLabels.osId}=Windows`;

/** A Machine as the API returns it (only what the operator reads). */
export interface MachineResource {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    labels?: Record<string, string>;
    deletionTimestamp?: string;
    resourceVersion?: string;
    ownerReferences?: { kind?: string; name?: string; controller?: boolean }[];
  };
  status?: {
    phase?: string;
    addresses?: { type?: string; address?: string }[];
    nodeRef?: { name?: string };
  };
}

/** A Windows Machine reduced to what a join needs. */
export interface WindowsMachine {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  /** First IPv4 InternalIP, as upstream picks it. */
  readonly ipv4: string | undefined;
  readonly phase: string | undefined;
  readonly nodeRef: string | undefined;
  readonly deleting: boolean;
  readonly ignored: boolean;
  readonly windows: boolean;
  /** The MachineSet that controls it, if any. */
  readonly machineSet: string | undefined;
  /**
   * Its `InternalDNS` addresses (machine-api's, from the cloud): the node name on platforms whose kubelet
   * takes its name from the cloud's metadata (AWS's private DNS name, GCP's instance name).
   */
  readonly internalDns?: readonly string[];
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function firstIpv4(m: MachineResource): string | undefined {
  return (m.status?.addresses ?? []).find((a) => a.type === 'InternalIP' && IPV4.test(a.address ?? ''))
    ?.address;
}

function internalDnsNames(m: MachineResource): string[] {
  return (m.status?.addresses ?? []).flatMap((a) =>
    a.type === 'InternalDNS' && a.address ? [a.address.toLowerCase()] : [],
  );
}

function controllingMachineSet(m: MachineResource): string | undefined {
  return (m.metadata?.ownerReferences ?? []).find((r) => r.controller === true && r.kind === 'MachineSet')
    ?.name;
}

export function windowsMachine(m: MachineResource): WindowsMachine {
  const md = m.metadata ?? {};
  const labels = md.labels ?? {};
  return {
    name: md.name ?? '',
    namespace: md.namespace ?? '',
    uid: md.uid ?? '',
    ipv4: firstIpv4(m),
    phase: m.status?.phase,
    nodeRef: m.status?.nodeRef?.name,
    deleting: md.deletionTimestamp !== undefined,
    ignored: labels[MachineLabels.ignore] === 'true',
    windows: labels[MachineLabels.osId] === 'Windows',
    machineSet: controllingMachineSet(m),
    internalDns: internalDnsNames(m),
  };
}

/**
 * Upstream's `isValidMachine` plus the Windows label: not ignored, has a phase, has an IPv4 InternalIP,
 * and is not being deleted; undefined when it is, else why not.
 */
export function notConfigurable(m: WindowsMachine): string | undefined {
  if (!m.windows) return 'not a Windows Machine';
  if (m.ignored) return `labelled ${MachineLabels.ignore}=true`;
  if (m.deleting) return 'being deleted';
  if (m.phase === undefined || m.phase === '' || m.phase === 'Provisioning') return 'not provisioned yet';
  if (m.ipv4 === undefined) return 'no IPv4 InternalIP yet';
  return undefined;
}

/** The event target for a Machine. */
export function machineRef(m: WindowsMachine): {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  uid: string;
} {
  return {
    apiVersion: `${MACHINE_GROUP}/${MACHINE_VERSION}`,
    kind: 'Machine',
    name: m.name,
    namespace: m.namespace,
    uid: m.uid,
  };
}

/** Deletes the Machine object (its MachineSet then creates a replacement). */
export async function deleteMachineObject(
  custom: Pick<CustomObjectsApi, 'deleteNamespacedCustomObject'>,
  m: Pick<WindowsMachine, 'namespace' | 'name'>,
): Promise<void> {
  await custom.deleteNamespacedCustomObject({
    group: MACHINE_GROUP,
    version: MACHINE_VERSION,
    namespace: m.namespace,
    plural: 'machines',
    name: m.name,
  });
}
