import type { CoreV1Api } from '@kubernetes/client-node';
import type { LogRotation } from '../desired/log-rotation.js';
import type { PayloadEntry } from '../desired/payload-manifest.js';
import type { ServiceCapabilities } from '../desired/windows-services.js';
import type { WindowsHost } from '../host/windows-host.js';
import type { EventRecorder } from '../kube/event-recorder.js';
import type { ServiceDisruption } from './service-disruption.js';
import type { Logger } from '../kube/logger.js';
import type { MetadataRoutes } from '../provider/capabilities/metadata-routes.js';
import type { HostFile } from '../provider/types/payload-file.js';
import type { ClusterFacts } from '../desired/cluster-facts.js';
import type { Registrations } from '../identity/registrations.js';
import type { NodeRecords } from '../identity/node-record-store.js';
import type { CloudJoin } from './cloud-instance.js';
import type { InstanceStatusStore } from './instance-status.js';
import type { NodeChanges } from './node-changes.js';
import type { PlatformBuilds } from './windows-build-gate.js';

/** How to reach one host. */
export interface HostTarget {
  readonly address: string;
  readonly ipv4: string;
  readonly username: string;
  readonly privateKeyPem: string;
  /** Fail at once on an authentication error instead of retrying while sshd may still be set up. */
  readonly quickAuth?: boolean;
  /**
   * Give up connecting after this long (default: the SSH adapter's 10 min, for joins, where a host may
   * still be booting). Drift checks, key rotation and removals use shorter deadlines, so a host that does
   * not answer holds a worker of their lane only briefly.
   */
  readonly connectDeadlineMs?: number;
  /**
   * The host module should be there (a Ready node the operator joined): call it at once instead of looking
   * for it by SFTP first; a missing module costs one failed call and is sent again (`assumeModule`).
   */
  readonly moduleExpected?: boolean;
  /** Abandons connecting once aborted (the operator stops, or the work is no longer wanted). */
  readonly signal?: AbortSignal;
}

/** Connect deadline of drift checks and key rotation: a Ready node answers at once or is looked at later. */
export const MAINTAIN_CONNECT_DEADLINE_MS = 60_000;
/** Connect deadline of a removal's deconfigure. */
export const REMOVE_CONNECT_DEADLINE_MS = 2 * 60_000;

export interface JoinTimings {
  /** How long to wait for the kubelet to register its Node (upstream: 10 min). */
  readonly nodeRegistrationMs: number;
  /** How long to wait for the hybrid-overlay subnet and for Ready. */
  readonly nodeReadyMs: number;
  /** How often a Node waited for is read when no watch event (`nodeChanges`) ended the wait first. */
  readonly pollMs: number;
  /** How long to wait before trying a host again that does not accept the new private key yet. */
  readonly keyRetryMs?: number;
}

/** Everything the BYOH join and removal flows need; the operator (or a test) assembles it once. */
export interface JoinDeps {
  readonly core: CoreV1Api;
  readonly namespace: string;
  /** The operator version: services ConfigMap name and the nodes' `version` annotation. */
  readonly version: string;
  readonly openHost: (target: HostTarget) => WindowsHost;
  readonly payload: readonly PayloadEntry[];
  readonly payloadDir: string;
  readonly capabilities: ServiceCapabilities & { readonly metadataRoutes?: MetadataRoutes | undefined };
  readonly providerFiles: readonly HostFile[];
  readonly facts: () => Promise<ClusterFacts>;
  readonly events: EventRecorder;
  readonly logger: Logger;
  readonly status: InstanceStatusStore;
  /** Node-name registrations and owned nodes (identity/, ADR 0008). */
  readonly names: Registrations;
  /**
   * The operator's record of each joined instance (ADR 0035): where it connected, the node name, the
   * username, the tags it applied. Every decision after a join reads it, never the Node's own fields.
   */
  readonly records: NodeRecords;
  readonly debug: boolean;
  readonly logRotation: LogRotation;
  /** Proxy variables for the node (values verbatim). */
  readonly proxyEnv: Readonly<Record<string, string>>;
  readonly timings: JoinTimings;
  /** The cloud's part of joins and removals (identity check, ownership tags); absent off the clouds. */
  readonly cloud?: CloudJoin | undefined;
  /** Who may restart services on Ready nodes now (default: one node at a time). */
  readonly disruption?: ServiceDisruption;
  /** The Nodes' changes as the watch delivers them: waits for a Node end on the event, not a poll. */
  readonly nodeChanges?: NodeChanges | undefined;
  /** The platform's supported Windows Server releases (PlatformPrerequisites): a join on another is refused. */
  readonly windowsBuilds?: PlatformBuilds | undefined;
  readonly now?: () => Date;
}

/** Where events about BYOH instances go: the `windows-instances` ConfigMap. */
export function instancesConfigMapRef(namespace: string): {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
} {
  return { apiVersion: 'v1', kind: 'ConfigMap', name: 'windows-instances', namespace };
}

/** Where events about one node go: the Node itself (listed by `kubectl describe node`). */
export function nodeEventRef(node: {
  readonly metadata?: { readonly name?: string; readonly uid?: string };
}): { apiVersion: string; kind: string; name: string; uid?: string } {
  const uid = node.metadata?.uid;
  return { apiVersion: 'v1', kind: 'Node', name: node.metadata?.name ?? '', ...(uid ? { uid } : {}) };
}
