import type { CoreV1Api } from '@kubernetes/client-node';
import { isNotFound } from '../kube/client/api-errors.js';
import type { ExporterTls } from '../desired/cluster-facts.js';

/**
 * The Secret the service CA fills for the bundled `windows-exporter` Service (its annotation
 * `service.alpha.openshift.io/serving-cert-secret-name`), in the operator's namespace (reference §1.16).
 */
export const EXPORTER_TLS_SECRET = 'windows-machine-config-operator-tls';

export { EXPORTER_SERVICE, EXPORTER_TLS_FILES } from '../desired/exporter-tls-files.js';

/** `tls.crt` and `tls.key` of the Secret, or undefined while the service CA has not filled it. */
export async function readExporterTls(core: CoreV1Api, namespace: string): Promise<ExporterTls | undefined> {
  try {
    const data = (await core.readNamespacedSecret({ name: EXPORTER_TLS_SECRET, namespace })).data ?? {};
    const [cert, key] = [data['tls.crt'], data['tls.key']].map((v) =>
      Buffer.from(v ?? '', 'base64').toString('utf8'),
    );
    return cert && key ? { cert, key } : undefined;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
