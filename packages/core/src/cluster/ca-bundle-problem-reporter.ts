import { certificateThumbprints, TRUSTED_CA_BUNDLE_PATH, trustedCaBundle } from '../desired/ca-bundle.js';
import type { EventRecorder } from '../kube/event-recorder.js';
import type { ClusterFacts } from '../desired/cluster-facts.js';
import { TRUSTED_CA_CONFIGMAP } from './read-trusted-ca.js';

/**
 * One Warning event (`InvalidTrustedCA`, on the `trusted-ca` ConfigMap) when the CA bundle holds blocks
 * that do not parse as certificates: they stay in `C:\k\ca-bundle.crt` but are not imported into the
 * Root store. Reported again only when the set of broken blocks changes.
 */
export class CaBundleProblemReporter {
  private last = '';

  constructor(
    private readonly events: EventRecorder,
    private readonly namespace: string,
  ) {}

  async report(facts: Pick<ClusterFacts, 'caBundle'>): Promise<void> {
    const unusable = facts.caBundle ? certificateThumbprints(trustedCaBundle(facts.caBundle)).unusable : [];
    const message =
      unusable.length === 0
        ? ''
        : `${TRUSTED_CA_BUNDLE_PATH}: certificate block(s) ${unusable.join(', ')} do not parse and are ` +
          'not imported into the machine Root store (the registry bundles of ControllerConfig ' +
          'machine-config-controller come first, then this ConfigMap’s ca-bundle.crt)';
    if (message === this.last) return;
    this.last = message; // before the await: a concurrent report must not repeat it
    if (message === '') return;
    await this.events.record(
      { apiVersion: 'v1', kind: 'ConfigMap', name: TRUSTED_CA_CONFIGMAP, namespace: this.namespace },
      'Warning',
      'InvalidTrustedCA',
      message,
    );
  }
}
