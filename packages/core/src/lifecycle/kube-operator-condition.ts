import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { OperatorConditionPort, UpgradeableCondition } from './upgradeable.js';

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/**
 * The OperatorCondition OLM created for this operator (`operators.coreos.com/v2`, named by the
 * `OPERATOR_CONDITION_NAME` environment variable): the `Upgradeable` entry of `spec.conditions` is
 * replaced, other entries kept, `lastTransitionTime` moved only when the status changes (as
 * `meta.SetStatusCondition` does). A missing object is an error the caller logs and retries.
 */
export class KubeOperatorCondition implements OperatorConditionPort {
  constructor(
    private readonly api: CustomObjectsApi,
    private readonly namespace: string,
    private readonly name: string,
  ) {}

  async setUpgradeable(c: UpgradeableCondition): Promise<void> {
    const ref = {
      group: 'operators.coreos.com',
      version: 'v2',
      namespace: this.namespace,
      plural: 'operatorconditions',
      name: this.name,
    };
    const current = (await this.api.getNamespacedCustomObject(ref)) as {
      spec?: { conditions?: Condition[] };
    };
    const conditions = current.spec?.conditions ?? [];
    const old = conditions.find((x) => x.type === 'Upgradeable');
    const entry: Condition = {
      type: 'Upgradeable',
      status: c.status,
      reason: c.reason,
      message: c.message,
      lastTransitionTime:
        old?.status === c.status && old.lastTransitionTime
          ? old.lastTransitionTime
          : new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    };
    const body = {
      ...current,
      spec: { ...current.spec, conditions: [...conditions.filter((x) => x !== old), entry] },
    };
    await this.api.replaceNamespacedCustomObject({ ...ref, body });
  }
}
