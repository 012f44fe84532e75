import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { providerSpecFor } from './machine-provider-specs.js';
import {
  CLUSTER_ID_LABEL,
  SimInstanceLauncher,
  workerAddresses,
  type HostCosts,
  type MachineCloud,
  type PowerShellEngineOptions,
} from '@wmco/sim';

const NS = 'openshift-machine-api';
const GROUP = { group: 'machine.openshift.io', version: 'v1beta1', namespace: NS };

/** Loopback addresses for this worker thread's Machine VMs (apart from the BYOH hosts'). */
const machineAddress = workerAddresses(5);

/**
 * The VMs behind the world's Machines: simulated Windows hosts that boot from their user data, created
 * as instances of the simulated cloud when there is one (AWS, Azure, GCP).
 */
export function worldLauncher(
  costs: HostCosts,
  cloud?: MachineCloud,
  powershell?: PowerShellEngineOptions,
): SimInstanceLauncher {
  return new SimInstanceLauncher({
    allocateAddress: machineAddress,
    host: { costs, ...(powershell ? { powershell } : {}) },
    ...(cloud ? { cloud } : {}),
  });
}

export interface MachineSetInput {
  readonly name: string;
  readonly replicas: number;
  readonly platform: string;
  /** machine.openshift.io/os-id of the template (default Windows; '' for a Linux MachineSet). */
  readonly osId?: string;
  readonly userDataSecret?: string;
  /** Extra template labels (e.g. the ignore label). */
  readonly labels?: Readonly<Record<string, string>>;
}

/** A MachineSet as the docs show it, for the world's admin; `infra` is the cluster's infrastructure name. */
export function machineSetBody(i: MachineSetInput, infra = 'sim'): object {
  const sel = { [CLUSTER_ID_LABEL]: infra, 'machine.openshift.io/cluster-api-machineset': i.name };
  const os = i.osId ?? 'Windows';
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: { name: i.name, namespace: NS, labels: { [CLUSTER_ID_LABEL]: infra } },
    spec: {
      replicas: i.replicas,
      selector: { matchLabels: sel },
      template: {
        metadata: {
          labels: {
            ...sel,
            'machine.openshift.io/cluster-api-machine-role': 'worker',
            'machine.openshift.io/cluster-api-machine-type': 'worker',
            ...(os === '' ? {} : { 'machine.openshift.io/os-id': os }),
            ...i.labels,
          },
        },
        spec: {
          metadata: { labels: { 'node-role.kubernetes.io/worker': '' } },
          providerSpec: {
            value: providerSpecFor(i.platform, infra, i.userDataSecret ?? 'windows-user-data'),
          },
        },
      },
    },
  };
}

/** The machine.openshift.io API as the world's admin. */
export class WorldMachines {
  private readonly api: CustomObjectsApi;

  constructor(
    adminKubeconfig: string,
    private readonly infra = 'sim',
  ) {
    const kc = new KubeConfig();
    kc.loadFromFile(adminKubeconfig);
    this.api = kc.makeApiClient(CustomObjectsApi);
  }

  async createMachineSet(i: MachineSetInput): Promise<void> {
    await this.api.createNamespacedCustomObject({
      ...GROUP,
      plural: 'machinesets',
      body: machineSetBody(i, this.infra),
    });
  }

  /** Sets the replicas through the scale subresource (GET the Scale, PUT it back with its resourceVersion). */
  async scale(name: string, replicas: number): Promise<void> {
    const target = { ...GROUP, plural: 'machinesets', name };
    const current = (await this.api.getNamespacedCustomObjectScale(target)) as Record<string, unknown>;
    await this.api.replaceNamespacedCustomObjectScale({
      ...target,
      body: { ...current, spec: { replicas } },
    });
  }

  /** Deletes a Machine as a user would (`kubectl delete machine`). */
  async deleteMachine(name: string): Promise<void> {
    await this.api.deleteNamespacedCustomObject({ ...GROUP, plural: 'machines', name });
  }

  async machines(machineSet?: string): Promise<MachineView[]> {
    const list = (await this.api.listNamespacedCustomObject({ ...GROUP, plural: 'machines' })) as {
      items: MachineView[];
    };
    return list.items.filter((m) => machineSet === undefined || m.metadata.name.startsWith(`${machineSet}-`));
  }
}

export interface MachineView {
  metadata: { name: string; uid: string; labels?: Record<string, string>; deletionTimestamp?: string };
  spec?: { providerID?: string };
  status?: { phase?: string; nodeRef?: { name: string }; addresses?: { type: string; address: string }[] };
}
