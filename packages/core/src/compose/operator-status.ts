import { VersionApi, type CoreV1Api } from '@kubernetes/client-node';
import type { ClusterFacts } from '../desired/cluster-facts.js';
import { kubernetesVersionProblem, networkProblems } from '../cluster/cluster-validation.js';
import { ConfigMapStatusStore } from '../lifecycle/configmap-status-store.js';
import { refusedStartConditions, withTransitions } from '../lifecycle/operator-conditions.js';
import type { ByohControllers } from '../sources/byoh/byoh-controllers.js';
import { OperatorStatusReporter } from './operator-status-reporter.js';
import type { WmcoControllersOptions } from './wmco-controllers-options.js';

/**
 * The reporter of the operator's own conditions for one composition: the private key as the BYOH
 * source's informer holds it (told of each change), the cluster checks of the operator's start (Kubernetes
 * version, network) run once per start, and the instance statuses of `store`.
 */
export function operatorStatus(
  o: WmcoControllersOptions,
  i: { store: ConfigMapStatusStore; byoh: ByohControllers; facts: ClusterFacts; privateKeySecret: string },
): OperatorStatusReporter {
  const reporter = new OperatorStatusReporter({
    store: i.store,
    version: o.version,
    logger: o.logger,
    privateKeySecret: i.privateKeySecret,
    privateKey: () => i.byoh.privateKey(),
    clusterProblems: async () => {
      const version = await o.kubeConfig.makeApiClient(VersionApi).getCode();
      const problems = [kubernetesVersionProblem(version.gitVersion), ...networkProblems(i.facts.network)];
      return problems.flatMap((p) => (p?.fatal === true ? [p.message] : []));
    },
  });
  i.byoh.onPrivateKeyChange(() => reporter.update());
  return reporter;
}

/**
 * Writes the operator's conditions when it refuses to start on an unsupported cluster (the process then
 * exits): `wmco status` says why, where it says everything else about the operator.
 */
export async function reportRefusedStart(
  api: CoreV1Api,
  o: { namespace: string; version: string; problems: readonly string[] },
): Promise<void> {
  const store = new ConfigMapStatusStore(api, o.namespace);
  await store.load();
  const conditions = withTransitions(
    store.loadedOperatorConditions(),
    refusedStartConditions(o.problems),
    new Date(),
  );
  await store.setOperator({ version: o.version, conditions });
}
