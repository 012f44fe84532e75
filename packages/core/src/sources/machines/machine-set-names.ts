import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { Clock } from '../../kube/clock.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { errorMessage, type Logger } from '../../kube/logger.js';
import { SupervisedInformer } from '../../kube/supervised-informer.js';
import type { KubeList, WatchPort } from '../../kube/watch-port.js';
import type { HostRename } from '../../provider/capabilities/host-rename.js';
import { MACHINE_API_NAMESPACE, MACHINE_GROUP, MACHINE_VERSION, MachineLabels } from './machine-object.js';

/** A MachineSet as the API returns it (only what the name check reads). */
export interface MachineSetResource {
  metadata?: { name?: string; namespace?: string; uid?: string };
  spec?: { template?: { metadata?: { labels?: Record<string, string> } } };
}

/** A name the MachineSet controller could give one of its Machines: `<machineset>-` and 5 characters. */
export function sampleMachineName(machineSet: string): string {
  return `${machineSet}-abcde`;
}

/** Whether the Machines a MachineSet creates can take their names as computer names. */
export function machineSetNameProblem(hostRename: HostRename, machineSet: string): string | undefined {
  try {
    hostRename.hostnameFor(sampleMachineName(machineSet));
    return undefined;
  } catch (err) {
    return errorMessage(err);
  }
}

/** The longest MachineSet name whose Machines' names pass `hostRename` (9 on vSphere and Nutanix). */
function longestValidName(hostRename: HostRename, upTo: number): number {
  for (let n = upTo; n > 0; n--) if (!machineSetNameProblem(hostRename, 'a'.repeat(n))) return n;
  return 0;
}

/**
 * Validation upstream documents but does not do: on platforms that rename the VM to its Machine name
 * (vSphere, Nutanix), a Windows MachineSet whose name is too long for its Machines' computer names gets
 * one `InvalidMachineName` event, when it appears (even with 0 replicas), instead of Machines that never join.
 */
export class MachineSetNameCheck {
  private readonly reported = new Set<string>();

  constructor(
    private readonly hostRename: HostRename,
    private readonly events: EventRecorder,
    private readonly logger: Logger,
  ) {}

  async check(ms: MachineSetResource): Promise<void> {
    const name = ms.metadata?.name ?? '';
    const uid = ms.metadata?.uid ?? name;
    if (!isWindows(ms) || this.reported.has(uid)) return;
    const problem = machineSetNameProblem(this.hostRename, name);
    if (problem === undefined) return;
    this.reported.add(uid);
    const max = longestValidName(this.hostRename, name.length);
    const message =
      `the Machines of MachineSet ${name} (named ${name}-<5 characters>) cannot be configured: ` +
      `${problem}; use a MachineSet name of at most ${max} characters`;
    this.logger.warn({ machineSet: name }, message);
    await this.events.record(machineSetRef(ms), 'Warning', 'InvalidMachineName', message);
  }
}

function isWindows(ms: MachineSetResource): boolean {
  return ms.spec?.template?.metadata?.labels?.[MachineLabels.osId] === 'Windows';
}

function machineSetRef(ms: MachineSetResource): {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  uid?: string;
} {
  return {
    apiVersion: `${MACHINE_GROUP}/${MACHINE_VERSION}`,
    kind: 'MachineSet',
    name: ms.metadata?.name ?? '',
    namespace: ms.metadata?.namespace ?? MACHINE_API_NAMESPACE,
    ...(ms.metadata?.uid ? { uid: ms.metadata.uid } : {}),
  };
}

/** MachineSets in openshift-machine-api (only read where the platform renames VMs). */
export function machineSetInformer(s: {
  custom: CustomObjectsApi;
  watch: WatchPort;
  clock: Clock;
  logger: Logger;
}): SupervisedInformer<MachineSetResource & { metadata?: { name?: string } }> {
  return new SupervisedInformer<MachineSetResource>({
    watch: s.watch,
    clock: s.clock,
    logger: s.logger,
    name: 'windows-machinesets',
    path: `/apis/${MACHINE_GROUP}/${MACHINE_VERSION}/namespaces/${MACHINE_API_NAMESPACE}/machinesets`,
    list: async (sel) =>
      (await s.custom.listNamespacedCustomObject({
        group: MACHINE_GROUP,
        version: MACHINE_VERSION,
        namespace: MACHINE_API_NAMESPACE,
        plural: 'machinesets',
        ...sel,
      })) as KubeList<MachineSetResource>,
  });
}
