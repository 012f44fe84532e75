import type { CustomObjectsApi } from '@kubernetes/client-node';
import {
  MACHINE_API_NAMESPACE,
  MachineControllers,
  ServiceMonitorController,
  httpStatus,
  type ByohControllers,
  type HostPinRemover,
  type JoinDeps,
  type NodeMaintenance,
  type WatchPort,
} from '@wmco/core/internal';
import { systemClock, type HostKeyStore } from '@wmco/core';
import type { PlatformParts } from './platform-parts.js';

/**
 * The sources of Windows nodes the operator runs while it leads: BYOH always, Machines where served; and
 * the `windows-exporter` ServiceMonitor that follows the namespace's monitoring label.
 */
export class NodeSources {
  constructor(
    readonly byoh: ByohControllers,
    readonly machines: MachineControllers | undefined,
    readonly monitoring?: ServiceMonitorController,
  ) {}

  get synced(): boolean {
    return this.byoh.synced && (this.machines?.synced ?? true);
  }

  async start(): Promise<void> {
    this.monitoring?.start();
    await Promise.all([this.byoh.start(), this.machines?.start()]);
  }

  async stop(): Promise<void> {
    await Promise.all([this.byoh.stop(), this.machines?.stop(), this.monitoring?.stop()]);
  }
}

/** The ServiceMonitor keeper, with the join's clients, events and logger. */
export function serviceMonitor(
  deps: JoinDeps,
  custom: CustomObjectsApi,
  watch: WatchPort,
): ServiceMonitorController {
  const { core, namespace, events, logger } = deps;
  return new ServiceMonitorController({ core, custom, watch, clock: systemClock, namespace, events, logger });
}

export interface MachineSourceInput {
  readonly deps: JoinDeps;
  readonly custom: CustomObjectsApi;
  readonly watch: WatchPort;
  readonly hostKeys: HostKeyStore & HostPinRemover;
  readonly parts: PlatformParts['machines'] | undefined;
  readonly privateKeySecret: string;
  readonly parallelJoins: number;
  readonly retry?: { readonly budget: number; readonly retryMs: number } | undefined;
  /** The BYOH source's lifecycle: Machines share its budget, upgrade/reboot flow and drift repair. */
  readonly maintenance: NodeMaintenance;
  readonly driftRepairIntervalMs: number;
  readonly driftMetric?: (result: 'clean' | 'repaired' | 'skipped' | 'error') => void;
}

/**
 * 'served' when the operator may list machine.openshift.io Machines; 'absent' when the cluster has no
 * Machine API; 'forbidden' when its RBAC does not grant it (the operator then runs BYOH only).
 */
async function machineApiServed(custom: CustomObjectsApi): Promise<'served' | 'absent' | 'forbidden'> {
  try {
    await custom.listNamespacedCustomObject({
      group: 'machine.openshift.io',
      version: 'v1beta1',
      namespace: MACHINE_API_NAMESPACE,
      plural: 'machines',
      limit: 1,
    });
    return 'served';
  } catch (e) {
    if (httpStatus(e) === 404) return 'absent';
    if (httpStatus(e) === 403) return 'forbidden';
    throw e;
  }
}

/** The Machine source, or undefined (with a log line) when the cluster or the provider has none. */
export async function machineSource(i: MachineSourceInput): Promise<MachineControllers | undefined> {
  const { access, userDataFormat, hostRename } = i.parts ?? {};
  if (!access || !userDataFormat) {
    i.deps.logger.info(
      {},
      'the platform provider has no MachineAccess/UserDataFormat: Machines are not watched',
    );
    return undefined;
  }
  const served = await machineApiServed(i.custom);
  if (served === 'absent') {
    i.deps.logger.info({}, 'the cluster serves no machine.openshift.io Machines: Machines are not watched');
    return undefined;
  }
  if (served === 'forbidden') {
    i.deps.logger.warn(
      {},
      'the operator may not list machine.openshift.io Machines in openshift-machine-api: Machines are not watched',
    );
    return undefined;
  }
  return new MachineControllers({
    deps: i.deps,
    custom: i.custom,
    watch: i.watch,
    hostKeys: i.hostKeys,
    sshUser: access.sshUser,
    userDataFormat,
    hostRename,
    privateKeySecret: i.privateKeySecret,
    parallelJoins: i.parallelJoins,
    maintenance: i.maintenance,
    driftRepairIntervalMs: i.driftRepairIntervalMs,
    ...(i.driftMetric ? { metrics: { drift: i.driftMetric } } : {}),
    ...(i.retry ? { retryBudget: i.retry.budget, retryMs: i.retry.retryMs } : {}),
  });
}
