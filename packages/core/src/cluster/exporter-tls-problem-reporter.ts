import type { EventRecorder } from '../kube/event-recorder.js';
import type { ClusterFacts } from '../desired/cluster-facts.js';
import { EXPORTER_TLS_SECRET } from './read-exporter-tls.js';

/**
 * windows_exporter's serving certificate (the service CA's Secret `windows-machine-config-operator-tls`)
 * missing or empty: one Warning event `MissingExporterCertificate` on the `windows-exporter` Service, and a
 * Normal `ExporterCertificateAvailable` once it arrives. Joins go on without it (windows_exporter then
 * serves nothing; upstream fails the join instead, ADR 0021), so this event is how an admin learns why
 * the Windows metrics are missing. Reported once per change, not per join.
 */
export class ExporterTlsProblemReporter {
  private last: 'present' | 'missing' | undefined;

  constructor(
    private readonly events: EventRecorder,
    private readonly namespace: string,
  ) {}

  async report(facts: Pick<ClusterFacts, 'exporterTls'>): Promise<void> {
    const now = facts.exporterTls ? 'present' : 'missing';
    const before = this.last;
    if (now === before) return;
    this.last = now; // before the await: a concurrent report must not repeat it
    if (now === 'present' && before === undefined) return;
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      name: 'windows-exporter',
      namespace: this.namespace,
    };
    if (now === 'missing')
      await this.events.record(
        service,
        'Warning',
        'MissingExporterCertificate',
        `Secret ${EXPORTER_TLS_SECRET} has no tls.crt/tls.key (the service CA fills it for this Service's ` +
          'serving-cert annotation): Windows nodes get no windows_exporter certificate, so windows_exporter ' +
          'serves no metrics until it arrives',
      );
    else
      await this.events.record(
        service,
        'Normal',
        'ExporterCertificateAvailable',
        `Secret ${EXPORTER_TLS_SECRET} holds windows_exporter's certificate; nodes receive it`,
      );
  }
}
