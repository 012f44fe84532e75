import { CoordinationV1Api, KubeConfig, V1MicroTime } from '@kubernetes/client-node';
import { LEADER_LEASE_NAME } from '@wmco/operator';
import type { SimWorld } from './sim-world.js';
import { NS } from './world-fixture.js';

/**
 * Writes `holder` into the operator's Lease for `seconds`, renewed now: another replica took it, as after a
 * network partition healed in its favour. The leader's term then ends 'lost'.
 */
export async function usurpLease(world: SimWorld, holder: string, seconds: number): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const leases = kc.makeApiClient(CoordinationV1Api);
  const lease = await leases.readNamespacedLease({ name: LEADER_LEASE_NAME, namespace: NS });
  await leases.replaceNamespacedLease({
    name: LEADER_LEASE_NAME,
    namespace: NS,
    body: {
      ...lease,
      spec: {
        ...lease.spec,
        holderIdentity: holder,
        renewTime: new V1MicroTime(),
        leaseDurationSeconds: seconds,
      },
    },
  });
}

/** Who holds the operator's Lease now. */
export async function leaseHolder(world: SimWorld): Promise<string | undefined> {
  const kc = new KubeConfig();
  kc.loadFromFile(world.adminKubeconfig);
  const lease = await kc
    .makeApiClient(CoordinationV1Api)
    .readNamespacedLease({ name: LEADER_LEASE_NAME, namespace: NS });
  return lease.spec?.holderIdentity;
}
