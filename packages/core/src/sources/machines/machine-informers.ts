import type { CoreV1Api, CustomObjectsApi, V1Node, V1Secret } from '@kubernetes/client-node';
import type { Clock } from '../../kube/clock.js';
import type { Logger } from '../../kube/logger.js';
import { SupervisedInformer } from '../../kube/supervised-informer.js';
import type { KubeList, WatchPort } from '../../kube/watch-port.js';
import { cachedNode } from '../../kube/cached-node.js';
import { PRIVATE_KEY_SECRET, WINDOWS_NODE_SELECTOR } from '../../identity/node-metadata.js';
import {
  MACHINE_API_NAMESPACE,
  MACHINE_GROUP,
  MACHINE_VERSION,
  WINDOWS_MACHINE_SELECTOR,
  type MachineResource,
} from './machine-object.js';
import { USER_DATA_SECRET } from './user-data-secret.js';

export interface MachineInformerSources {
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  readonly watch: WatchPort;
  readonly namespace: string;
  readonly privateKeySecret: string | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly onRestart?: (informer: string, reason: string) => void;
}

/**
 * Windows Machines in openshift-machine-api, Windows Nodes, the private key, and the `windows-user-data`
 * Secret the operator keeps there (watched by name, so a deleted or edited one is put back at once, as
 * upstream does).
 */
export function machineInformers(s: MachineInformerSources): {
  machines: SupervisedInformer<MachineResource & { metadata?: { name?: string } }>;
  nodes: SupervisedInformer<V1Node>;
  secret: SupervisedInformer<V1Secret>;
  userData: SupervisedInformer<V1Secret>;
} {
  const base = { watch: s.watch, clock: s.clock, logger: s.logger };
  const restart = (name: string) => (reason: string) => s.onRestart?.(name, reason);
  return {
    machines: new SupervisedInformer<MachineResource>({
      ...base,
      name: 'windows-machines',
      path: `/apis/${MACHINE_GROUP}/${MACHINE_VERSION}/namespaces/${MACHINE_API_NAMESPACE}/machines`,
      labelSelector: WINDOWS_MACHINE_SELECTOR,
      list: async (sel) =>
        (await s.custom.listNamespacedCustomObject({
          group: MACHINE_GROUP,
          version: MACHINE_VERSION,
          namespace: MACHINE_API_NAMESPACE,
          plural: 'machines',
          ...sel,
        })) as KubeList<MachineResource>,
      onRestart: restart('windows-machines'),
    }),
    nodes: new SupervisedInformer<V1Node>({
      ...base,
      name: 'machine-nodes',
      path: '/api/v1/nodes',
      labelSelector: WINDOWS_NODE_SELECTOR,
      list: (sel) => s.core.listNode(sel),
      transform: cachedNode,
      onRestart: restart('machine-nodes'),
    }),
    secret: new SupervisedInformer<V1Secret>({
      ...base,
      name: 'machine-private-key',
      path: `/api/v1/namespaces/${s.namespace}/secrets`,
      fieldSelector: `metadata.name=${s.privateKeySecret ?? PRIVATE_KEY_SECRET}`,
      list: (sel) => s.core.listNamespacedSecret({ namespace: s.namespace, ...sel }),
      onRestart: restart('machine-private-key'),
    }),
    userData: new SupervisedInformer<V1Secret>({
      ...base,
      name: 'windows-user-data',
      path: `/api/v1/namespaces/${MACHINE_API_NAMESPACE}/secrets`,
      fieldSelector: `metadata.name=${USER_DATA_SECRET}`,
      list: (sel) => s.core.listNamespacedSecret({ namespace: MACHINE_API_NAMESPACE, ...sel }),
      onRestart: restart('windows-user-data'),
    }),
  };
}
