import type { CertificatesV1Api, CoreV1Api, V1ConfigMap, V1Node, V1Secret } from '@kubernetes/client-node';
import type { Clock } from '../../kube/clock.js';
import type { Logger } from '../../kube/logger.js';
import { SupervisedInformer } from '../../kube/supervised-informer.js';
import type { KubeList, KubeObject, ListPort, WatchPort } from '../../kube/watch-port.js';
import {
  PRIVATE_KEY_SECRET,
  WINDOWS_INSTANCES_CONFIGMAP,
  WINDOWS_NODE_SELECTOR,
} from '../../identity/node-metadata.js';
import { cachedCsr, type CachedCsr } from '../../admit/cached-csr.js';
import { cachedNode } from '../../kube/cached-node.js';

export interface InformerSources {
  readonly core: CoreV1Api;
  readonly certificates: CertificatesV1Api;
  readonly watch: WatchPort;
  readonly namespace: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly onRestart?: (informer: string, reason: string) => void;
  /** Secret holding the private key (default cloud-private-key). */
  readonly privateKeySecret?: string;
  /** CSRs per page of the CSR list (default CSR_PAGE_SIZE). */
  readonly csrPageSize?: number;
}

/** Every CSR of the cluster is listed, in pages of this many (client-go's reflector page size). */
export const CSR_PAGE_SIZE = 500;

function make<T extends KubeObject>(
  s: InformerSources,
  what: {
    name: string;
    path: string;
    list: ListPort<T>;
    selectors: { labelSelector?: string; fieldSelector?: string };
    transform?: (obj: T) => T;
    pageSize?: number;
  },
): SupervisedInformer<T> {
  const { name, path, list, selectors, transform, pageSize } = what;
  return new SupervisedInformer<T>({
    name,
    path,
    list,
    watch: s.watch,
    clock: s.clock,
    logger: s.logger,
    ...selectors,
    ...(transform ? { transform } : {}),
    ...(pageSize === undefined ? {} : { pageSize }),
    onRestart: (reason) => s.onRestart?.(name, reason),
  });
}

/** The four watches the BYOH controllers run on: windows-instances, Windows Nodes, the key, CSRs. */
export function byohInformers(s: InformerSources): {
  instances: SupervisedInformer<V1ConfigMap>;
  nodes: SupervisedInformer<V1Node>;
  secret: SupervisedInformer<V1Secret>;
  csrs: SupervisedInformer<CachedCsr>;
} {
  const ns = s.namespace;
  const cmSel = { fieldSelector: `metadata.name=${WINDOWS_INSTANCES_CONFIGMAP}` };
  const secretSel = { fieldSelector: `metadata.name=${s.privateKeySecret ?? PRIVATE_KEY_SECRET}` };
  const nodeSel = { labelSelector: WINDOWS_NODE_SELECTOR };
  return {
    instances: make(s, {
      name: 'windows-instances',
      path: `/api/v1/namespaces/${ns}/configmaps`,
      list: (sel) =>
        s.core.listNamespacedConfigMap({ namespace: ns, ...sel }) as Promise<KubeList<V1ConfigMap>>,
      selectors: cmSel,
    }),
    nodes: make(s, {
      name: 'windows-nodes',
      path: '/api/v1/nodes',
      list: (sel) => s.core.listNode(sel) as Promise<KubeList<V1Node>>,
      selectors: nodeSel,
      transform: cachedNode,
    }),
    secret: make(s, {
      name: 'private-key',
      path: `/api/v1/namespaces/${ns}/secrets`,
      list: (sel) => s.core.listNamespacedSecret({ namespace: ns, ...sel }) as Promise<KubeList<V1Secret>>,
      selectors: secretSel,
    }),
    csrs: make(s, {
      name: 'csrs',
      path: '/apis/certificates.k8s.io/v1/certificatesigningrequests',
      list: ({ continue: token, ...sel }) =>
        s.certificates.listCertificateSigningRequest({
          ...sel,
          ...(token === undefined ? {} : { _continue: token }),
        }) as Promise<KubeList<CachedCsr>>,
      selectors: {},
      transform: cachedCsr,
      // A cluster's every CSR (Linux nodes' too): never in one answer (issue 27).
      pageSize: s.csrPageSize ?? CSR_PAGE_SIZE,
    }),
  };
}
