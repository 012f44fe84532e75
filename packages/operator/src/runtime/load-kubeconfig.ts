import { KubeConfig } from '@kubernetes/client-node';
import type { OperatorConfig } from './operator-config.js';

/** The operator's kubeconfig: `--kubeconfig`/KUBECONFIG, else the default (in-cluster), and `--context`. */
export function loadKubeConfig(c: Pick<OperatorConfig, 'kubeconfig' | 'context'>): KubeConfig {
  const kc = new KubeConfig();
  if (c.kubeconfig) kc.loadFromFile(c.kubeconfig);
  else kc.loadFromDefault();
  if (c.context) kc.setCurrentContext(c.context);
  return kc;
}
