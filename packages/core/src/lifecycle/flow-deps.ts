import type { NodeDesignDeps } from '../desired/node-spec.js';
import type { JoinDeps } from './join-deps.js';
import type { NodeWaitDeps } from './node-changes.js';

/**
 * What each shared flow reads of the dependencies the composition assembles (`JoinDeps`), so a test or an
 * embedder builds only what the flow it uses needs. Each is a `Pick` of `JoinDeps` (plus the narrow
 * interfaces of the helpers the flow calls: the node design, the Node waits), so a whole `JoinDeps` still
 * serves every flow.
 */

/** The cluster the flows act in, and how they tell what they did. */
export type ClusterDeps = Pick<JoinDeps, 'core' | 'namespace' | 'version' | 'events' | 'logger'>;

/** How a flow reaches a host and what it builds the host's configuration from. */
export type HostDesignDeps = NodeDesignDeps & Pick<JoinDeps, 'openHost' | 'payloadDir' | 'facts'>;

/** What `JoinFlow` reads: the host and its design, the Node waits, the status, records and cloud. */
export type JoinFlowDeps = ClusterDeps &
  HostDesignDeps &
  NodeWaitDeps &
  Pick<JoinDeps, 'status' | 'records' | 'cloud' | 'windowsBuilds' | 'now'>;

/** What `NodeReconfigure` reads: one converge round of a joined node. */
export type ReconfigureDeps = ClusterDeps & HostDesignDeps;

/** What `UpgradeFlow` reads: a reconfigure, a drain, a wait for Ready, and the status. */
export type UpgradeFlowDeps = ReconfigureDeps & NodeWaitDeps & Pick<JoinDeps, 'status'>;

/** What `DriftRepair` reads: one observe and apply, and who may restart services on a Ready node. */
export type DriftRepairDeps = ClusterDeps & HostDesignDeps & Pick<JoinDeps, 'disruption'>;

/**
 * What `NodeMaintenance` reads: the flows it builds (join, upgrade, drift repair) and the services
 * ConfigMap keeper, with its own clock.
 */
export type MaintenanceDeps = JoinFlowDeps & UpgradeFlowDeps & DriftRepairDeps;
