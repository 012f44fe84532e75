import type { CertificatesV1Api } from '@kubernetes/client-node';
import type { InstanceAddressPolicy } from '../../desired/instance-address.js';
import type { Ipv4Resolver } from '../../desired/windows-instances.js';
import type { BootstrapIdentity } from '../../identity/bootstrap-identity.js';
import type { ControllerMetrics } from '../../kube/controller.js';
import type { WorkQueueMetrics } from '../../kube/work-queue.js';
import type { WatchPort } from '../../kube/watch-port.js';
import type { CsrMetrics } from '../../controllers/csr-reconciler.js';
import type { JoinDeps } from '../../lifecycle/join-deps.js';
import type { NodeChangeFeed } from '../../lifecycle/node-changes.js';
import type { RemoveOptions } from '../../lifecycle/remove-flow.js';
import type { NodeMaintenance } from '../../lifecycle/maintenance.js';
import type { PinStore } from './entry-pins.js';
import type { ListedSource } from './listed-source.js';

/** What the controllers of one listed source (ByohControllers) are built from. */
export interface ByohControllersOptions {
  /** The flows' dependencies; their `nodeChanges` should be `nodeFeed`, which this source's Node informer feeds. */
  readonly deps: JoinDeps;
  /**
   * The lifecycle shared by every source (budget, upgrade flow, services ConfigMap, drift scheduling),
   * built once by the composition; `start()` it after `startInformers()` and before `start()`.
   */
  readonly maintenance: NodeMaintenance;
  /** Where this source's Windows-node informer publishes each new Node state (waits for a Node end on it). */
  readonly nodeFeed: NodeChangeFeed;
  readonly certificates: CertificatesV1Api;
  readonly watch: WatchPort;
  readonly hostKeys: PinStore;
  readonly resolver: Ipv4Resolver;
  /** Which addresses `windows-instances` keys may not reach (default: loopback and the other refused ranges). */
  readonly addressPolicy?: () => Promise<InstanceAddressPolicy>;
  /** Hosts joined at once (default 5; upstream one after another); drift checks and removals have their own workers. */
  readonly parallelJoins: number;
  readonly remove: RemoveOptions;
  readonly privateKeySecret?: string;
  /**
   * Which listed source this is and where its hosts come from (default: `windows-instances`, from the
   * ConfigMap). An embedder's own source runs beside it on a queue of its own.
   */
  readonly source?: ListedSource | undefined;
  /**
   * Decide kubelet CSRs (default true). Where several listed sources run in one process, one of them
   * decides for all: the registrations and records the decisions read are shared.
   */
  readonly approveCsrs?: boolean;
  /** Every listed source's entries now, where several run in one process (default: this source's). */
  readonly listedEntries?: () => readonly string[];
  /** Who may request kubelet client certificates (default: OpenShift's node-bootstrapper account). */
  readonly bootstrap?: BootstrapIdentity;
  /** Drift repair of Ready, up-to-date nodes every `intervalMs` (0: off). Default: off. */
  readonly driftRepairIntervalMs?: number;
  readonly metrics?: {
    drift?: (result: 'clean' | 'repaired' | 'skipped' | 'error') => void;
    queue?: (name: string) => WorkQueueMetrics;
    controller?: ControllerMetrics;
    csr?: CsrMetrics;
    informerRestart?: (informer: string, reason: string) => void;
  };
}
