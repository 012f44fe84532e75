import { KubeConfig } from '@kubernetes/client-node';
import type { Command } from 'commander';

export const DEFAULT_NAMESPACE = 'openshift-windows-machine-config-operator';

export interface KubeFlags {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
}

/** kubectl's habits: --kubeconfig, --context, -n. */
export function withKubeFlags(cmd: Command): Command {
  return cmd
    .option('--kubeconfig <file>', 'kubeconfig (default: $KUBECONFIG or ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context')
    .option('-n, --namespace <ns>', `operator namespace (default: $WATCH_NAMESPACE or ${DEFAULT_NAMESPACE})`);
}

export function kubeConfigFrom(flags: KubeFlags): KubeConfig {
  const kc = new KubeConfig();
  if (flags.kubeconfig) kc.loadFromFile(flags.kubeconfig);
  else kc.loadFromDefault();
  if (flags.context) kc.setCurrentContext(flags.context);
  return kc;
}

export function namespaceFrom(flags: KubeFlags, env: Readonly<Record<string, string | undefined>>): string {
  return flags.namespace ?? env['WATCH_NAMESPACE'] ?? DEFAULT_NAMESPACE;
}
