import type { EventRecorder } from '../kube/event-recorder.js';
import type { ClusterFacts } from '../desired/cluster-facts.js';

/**
 * Records one Warning event (`InvalidMirrorEntry`, on the IDMS/ITMS object) per skipped mirror entry,
 * the first time the cluster facts show it. Only the current problems are remembered, so the memory stays
 * bounded and a problem that is fixed and comes back is reported again.
 */
export class MirrorProblemReporter {
  private reported = new Set<string>();

  constructor(private readonly events: EventRecorder) {}

  async report(facts: Pick<ClusterFacts, 'mirrorProblems'>): Promise<void> {
    const current = new Set<string>();
    for (const p of facts.mirrorProblems ?? []) {
      current.add(p.message);
      if (this.reported.has(p.message)) continue;
      this.reported.add(p.message); // before the await: a concurrent report must not repeat it
      await this.events.record(
        { apiVersion: 'config.openshift.io/v1', kind: p.kind, name: p.name },
        'Warning',
        'InvalidMirrorEntry',
        p.message,
      );
    }
    this.reported = current;
  }
}
