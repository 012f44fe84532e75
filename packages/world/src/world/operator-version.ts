import { KubeConfig } from '@kubernetes/client-node';
import type { SimCluster } from '@wmco/sim';
import { OPERATOR_NAMESPACE } from '@wmco/sim';
import { publishSimCloud } from '../clouds/publish-sim-cloud.js';
import { applyCredentialsRequests, startSimCredentialOperator } from '../clouds/sim-credential-operator.js';
import type { SimCloud } from '../clouds/sim-clouds.js';
import type { RuntimeHooks } from '@wmco/operator';
import type { WorldHostSet } from './world-hosts.js';

/**
 * Makes the hosts instances of the platform's simulated cloud (started already, so the machine-api's
 * launcher could be given it) and points the cluster at it. With `minted` credentials (the default, as on
 * OpenShift with the cloud credential operator in mint mode) deploy/'s CredentialsRequests are applied
 * and the stand-in has minted the operator's Secret before this resolves.
 */
export async function attachWorldCloud(
  cluster: SimCluster,
  hosts: WorldHostSet,
  cloud: SimCloud | undefined,
  credentials: 'minted' | 'root' = 'minted',
): Promise<SimCloud | undefined> {
  if (!cloud) return undefined;
  for (const h of hosts.hosts)
    cloud.addHost(h.address, h.spec.hostname, h.sim.model.metadataHostname, h.spec.cloudNetwork);
  const kc = new KubeConfig();
  kc.loadFromString(cluster.server.kubeconfig(cluster.admin));
  await publishSimCloud(kc, cloud);
  const minter = startSimCredentialOperator(cluster, cloud);
  if (credentials === 'minted') await applyCredentialsRequests(cluster, minter, OPERATOR_NAMESPACE);
  return cloud;
}

/** Which operator `startOperator` runs: its version, payload and disruption budget. */
/**
 * The world operators' Lease timing: shorter than the operator's defaults (15 s, 10 s, 2 s) so handovers
 * are quick, but a renew gets 5 s: the world's API server, clouds, hosts and operators share one process,
 * and on a busy machine an answered renew can take seconds (a bounded renew then lost GCP `wmco sim`'s Lease).
 */
export const WORLD_LEADER_TIMING = { leaseDurationMs: 6000, renewDeadlineMs: 5000, retryPeriodMs: 300 };

export interface OperatorVersionOptions {
  readonly version?: string;
  readonly payloadDir?: string;
  readonly maxUnavailable?: string;
  readonly drainTimeoutMs?: number;
  /** `--drain-timeout`: after it a blocked drain deletes the remaining pods (unset: wait). */
  readonly drainForceAfterMs?: number;
  /** OPERATOR_CONDITION_NAME: the OperatorCondition to report `Upgradeable` on. */
  readonly operatorCondition?: string;
  /** How often the services ConfigMap keeper looks without a watch event (default 500 ms in the world). */
  readonly servicesResyncMs?: number;
  /** SERVICES_LOG_FILE_SIZE / _AGE / _FLUSH_INTERVAL of the operator (default none). */
  readonly servicesLog?: { readonly size?: string; readonly age?: string; readonly flushInterval?: string };
  /**
   * The Lease timing (default the world's short 6 s / 5 s / 0.3 s); benchmarks give `wmco run`'s, since
   * an operator that loses its Lease in the world is not started again.
   */
  readonly leaderTiming?: { leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number };
}

/** The parts of an operator's configuration `OperatorVersionOptions` set. */
export function versionConfig(v: OperatorVersionOptions): {
  maxUnavailable?: string;
  operatorConditionName?: string;
  drainForceAfterMs?: number;
} {
  return {
    ...(v.drainForceAfterMs !== undefined ? { drainForceAfterMs: v.drainForceAfterMs } : {}),
    ...(v.maxUnavailable ? { maxUnavailable: v.maxUnavailable } : {}),
    ...(v.operatorCondition ? { operatorConditionName: v.operatorCondition } : {}),
  };
}

/** The runtime hooks an operator version sets: its version and the upgrade flow's test-speed timings. */
export function versionHooks(v: OperatorVersionOptions): Pick<RuntimeHooks, 'version' | 'lifecycle'> {
  return {
    ...(v.version ? { version: v.version } : {}),
    lifecycle: {
      drainRetryMs: 200,
      drainTimeoutMs: v.drainTimeoutMs ?? 30_000,
      upgradeRetryMs: 500,
      servicesResyncMs: v.servicesResyncMs ?? 500,
      upgradeableIntervalMs: 100,
    },
  };
}
