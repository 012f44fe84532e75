import type { CoreV1Api } from '@kubernetes/client-node';
import { OPERATOR_STATUS_KEY, type InstanceStatus } from '@wmco/core/internal';
import { OPERATOR_NAMESPACE } from '@wmco/sim';

/** Every instance's status, from one read of `windows-instances-status` (by address; not the operator's own). */
export async function instanceStatuses(api: CoreV1Api): Promise<Record<string, InstanceStatus>> {
  const cm = await api
    .readNamespacedConfigMap({ name: 'windows-instances-status', namespace: OPERATOR_NAMESPACE })
    .catch(() => undefined);
  return Object.fromEntries(
    Object.entries(cm?.data ?? {})
      .filter(([key]) => key !== OPERATOR_STATUS_KEY)
      .map(([address, raw]) => [address, JSON.parse(raw) as InstanceStatus]),
  );
}
