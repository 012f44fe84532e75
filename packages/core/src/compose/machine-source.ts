import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { HostKeyStore } from '../host/host-key-store.js';
import type { HostPinRemover } from '../host/host-pins.js';
import { systemClock } from '../kube/clock.js';
import { httpStatus, type WatchPort } from '../kube/watch-port.js';
import type { JoinDeps } from '../lifecycle/join-deps.js';
import type { NodeMaintenance } from '../lifecycle/maintenance.js';
import { ServiceMonitorController } from '../monitoring/service-monitor-controller.js';
import { MachineControllers } from '../sources/machines/machine-controllers.js';
import { MACHINE_API_NAMESPACE } from '../sources/machines/machine-object.js';
import type { PlatformParts } from './platform-parts.js';

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
  /** The shared lifecycle: Machines share the budget, upgrade/reboot flow and drift repair of every source. */
  readonly maintenance: NodeMaintenance;
  readonly driftRepairIntervalMs: number;
  readonly driftMetric?: ((result: 'clean' | 'repaired' | 'skipped' | 'error') => void) | undefined;
}

/**
 * 'served' when the controllers may list machine.openshift.io Machines; 'absent' when the cluster has no
 * Machine API; 'forbidden' when its RBAC does not grant it (then BYOH only).
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
  const { access, userDataFormat, hostRename, nodeNameFromCloud } = i.parts ?? {};
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
    nodeNameFromCloud: nodeNameFromCloud === true,
    privateKeySecret: i.privateKeySecret,
    parallelJoins: i.parallelJoins,
    maintenance: i.maintenance,
    driftRepairIntervalMs: i.driftRepairIntervalMs,
    ...(i.driftMetric ? { metrics: { drift: i.driftMetric } } : {}),
    ...(i.retry ? { retryBudget: i.retry.budget, retryMs: i.retry.retryMs } : {}),
  });
}
