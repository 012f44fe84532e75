import type { CoreV1Api, CustomObjectsApi, V1Node } from '@kubernetes/client-node';
import {
  MACHINE_API_NAMESPACE,
  WINDOWS_MACHINE_SELECTOR,
  httpStatus,
  describeApiError,
  nodeOfMachine,
  planMachine,
  publicKeyOf,
  windowsMachine,
  type MachineAction,
  type MachineResource,
} from '@wmco/core/internal';
import { publicKeyHash } from '@wmco/core';
import type { PlatformParts } from '@wmco/core/internal';
import { WMCO_VERSION } from '../version-command.js';

/** What `wmco plan` says about one Windows Machine. */
export interface MachinePlanReport {
  readonly machine: string;
  readonly namespace: string;
  readonly node: string | undefined;
  readonly phase: string | undefined;
  readonly action: MachineAction;
  readonly reason: string;
}

export interface MachinePlanInput {
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  readonly machines: PlatformParts['machines'];
  /** The operator's key; undefined when its Secret cannot be read. */
  readonly privateKeyPem: string | undefined;
  /** Machine or node names to plan; empty for every Windows Machine. */
  readonly names: readonly string[];
}

/** The Windows Machines, or why they cannot be listed (no Machine API in the cluster, no permission). */
async function listMachines(custom: CustomObjectsApi): Promise<MachineResource[] | string> {
  try {
    const list = (await custom.listNamespacedCustomObject({
      group: 'machine.openshift.io',
      version: 'v1beta1',
      namespace: MACHINE_API_NAMESPACE,
      plural: 'machines',
      labelSelector: WINDOWS_MACHINE_SELECTOR,
    })) as { items?: MachineResource[] };
    return list.items ?? [];
  } catch (err) {
    if (httpStatus(err) === 404) return 'this cluster serves no machine.openshift.io Machines';
    return `cannot list Machines in ${MACHINE_API_NAMESPACE}: ${describeApiError(err)}`;
  }
}

function wanted(names: readonly string[], m: MachineResource, node: V1Node | undefined): boolean {
  if (names.length === 0) return true;
  return names.includes(m.metadata?.name ?? '') || names.includes(node?.metadata?.name ?? '');
}

/**
 * Per Windows Machine, what the operator's Machine reconciler would do now (core's `planMachine`, the
 * decision the reconciler acts on): join, upgrade, reboot, resume, replace for a key change, check-drift,
 * wait, ignore or nothing. Nothing is contacted but the
 * API server. Returns the reports and, when Machines cannot be listed, a note saying why.
 */
export async function planMachines(
  i: MachinePlanInput,
): Promise<{ reports: MachinePlanReport[]; note?: string }> {
  const listed = await listMachines(i.custom);
  if (typeof listed === 'string') return { reports: [], note: listed };
  const nodes = (await i.core.listNode({ labelSelector: 'kubernetes.io/os=windows' })).items;
  const hash = i.privateKeyPem === undefined ? undefined : publicKeyHash(publicKeyOf(i.privateKeyPem));
  const reports: MachinePlanReport[] = [];
  for (const res of listed) {
    const m = windowsMachine(res);
    const node = nodeOfMachine(nodes, m);
    if (!wanted(i.names, res, node)) continue;
    const plan = planMachine({
      machine: m,
      node,
      publicKeyHash: hash,
      version: WMCO_VERSION,
      machineApi: i.machines.access !== undefined && i.machines.userDataFormat !== undefined,
      hostname: (name) => i.machines.hostRename?.hostnameFor(name),
      sshUser: i.machines.access?.sshUser ?? '',
    });
    reports.push({
      machine: m.name,
      namespace: m.namespace,
      node: node?.metadata?.name,
      phase: m.phase,
      action: plan.action,
      reason: plan.reason,
    });
  }
  return { reports: reports.sort((a, b) => a.machine.localeCompare(b.machine)) };
}
