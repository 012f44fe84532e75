import type { CoreV1Api, V1ConfigMap } from '@kubernetes/client-node';
import { describeApiError, isConflict, isNotFound } from '../kube/client/api-errors.js';
import type { Logger } from '../kube/logger.js';
import { INJECT_TRUSTED_CABUNDLE_LABEL, TRUSTED_CA_CONFIGMAP } from '../cluster/read-trusted-ca.js';

/**
 * Keeps `<namespace>/trusted-ca` with the inject label, so the cluster network operator puts the cluster's
 * trusted CA bundle in its `ca-bundle.crt` (reference §1.10): created when missing (at start and after a
 * delete), the label put back when someone removed or changed it. Only the label is touched; the injected
 * data is left as it is. Upstream patches `/metadata/labels`; this replaces the object (with its
 * resourceVersion), as the operator never patches ConfigMaps (deploy/04-role.yaml).
 */
export class TrustedCaConfigMap {
  constructor(
    private readonly core: CoreV1Api,
    private readonly namespace: string,
    private readonly logger: Logger,
  ) {}

  /** One pass; never throws (a failure is logged, and the next watch event or start tries again). */
  async ensure(): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.ensureOnce();
        return;
      } catch (err) {
        if (isConflict(err)) continue; // changed under us, or created meanwhile: look again
        this.logger.warn({ err: describeApiError(err) }, `cannot keep ConfigMap ${this.where()}`);
        return;
      }
    }
  }

  private where(): string {
    return `${this.namespace}/${TRUSTED_CA_CONFIGMAP}`;
  }

  private async ensureOnce(): Promise<void> {
    let cm: V1ConfigMap;
    try {
      cm = await this.core.readNamespacedConfigMap({ name: TRUSTED_CA_CONFIGMAP, namespace: this.namespace });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await this.core.createNamespacedConfigMap({
        namespace: this.namespace,
        body: {
          metadata: {
            name: TRUSTED_CA_CONFIGMAP,
            namespace: this.namespace,
            labels: { [INJECT_TRUSTED_CABUNDLE_LABEL]: 'true' },
          },
        },
      });
      this.logger.info({}, `created ConfigMap ${this.where()} for the trusted CA bundle`);
      return;
    }
    if (cm.metadata?.labels?.[INJECT_TRUSTED_CABUNDLE_LABEL] === 'true') return;
    const labels = { ...(cm.metadata?.labels ?? {}), [INJECT_TRUSTED_CABUNDLE_LABEL]: 'true' };
    await this.core.replaceNamespacedConfigMap({
      name: TRUSTED_CA_CONFIGMAP,
      namespace: this.namespace,
      body: { ...cm, metadata: { ...cm.metadata, labels } },
    });
    this.logger.info({}, `put the inject label back on ConfigMap ${this.where()}`);
  }
}
