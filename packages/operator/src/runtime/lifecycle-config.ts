import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { KubeOperatorCondition, parseMaxUnavailable, type LifecycleOptions } from '@wmco/core/internal';
import type { OperatorConfig } from './operator-config.js';

/** The disruption budget, and OLM's OperatorCondition when OPERATOR_CONDITION_NAME names one. */
export function lifecycleFrom(
  config: OperatorConfig,
  kc: KubeConfig,
  timings: Partial<LifecycleOptions> = {},
): Partial<LifecycleOptions> {
  const name = config.operatorConditionName;
  const custom = kc.makeApiClient(CustomObjectsApi);
  return {
    maxUnavailable: parseMaxUnavailable(config.maxUnavailable ?? '1'),
    ...(name ? { operatorCondition: new KubeOperatorCondition(custom, config.namespace, name) } : {}),
    ...(config.drainForceAfterMs !== undefined ? { drainForceAfterMs: config.drainForceAfterMs } : {}),
    ...timings,
  };
}
