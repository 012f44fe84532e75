import type { V1CertificateSigningRequest } from '@kubernetes/client-node';
import type { KubeObject } from '../kube/watch-port.js';

/**
 * What the CSR informer keeps of a CertificateSigningRequest: its name and resourceVersion, signer and
 * conditions (whether it is decided, and which registration an approval served). The request and the
 * issued certificate, most of a CSR's bytes, are read from the API server by the CSR reconciler when it
 * decides; a cluster with 1,000 Windows nodes holds 2,000 kubelet CSRs and more of other nodes.
 */
export interface CachedCsr extends KubeObject {
  readonly spec: { readonly signerName: string };
  readonly status?: {
    readonly conditions?: readonly {
      readonly type: string;
      readonly reason?: string;
      readonly message?: string;
    }[];
  };
}

export function cachedCsr(csr: CachedCsr | V1CertificateSigningRequest): CachedCsr {
  const m = csr.metadata ?? {};
  const conditions = csr.status?.conditions?.map((c) => ({
    type: c.type,
    ...(c.reason === undefined ? {} : { reason: c.reason }),
    ...(c.message === undefined ? {} : { message: c.message }),
  }));
  return {
    metadata: {
      ...(m.name === undefined ? {} : { name: m.name }),
      ...(m.resourceVersion === undefined ? {} : { resourceVersion: m.resourceVersion }),
    },
    spec: { signerName: csr.spec.signerName },
    ...(conditions === undefined ? {} : { status: { conditions } }),
  };
}
