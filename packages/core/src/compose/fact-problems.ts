import { CaBundleProblemReporter } from '../cluster/ca-bundle-problem-reporter.js';
import type { ClusterFacts } from '../desired/cluster-facts.js';
import { ExporterTlsProblemReporter } from '../cluster/exporter-tls-problem-reporter.js';
import { MirrorProblemReporter } from '../cluster/mirror-problem-reporter.js';
import type { EventRecorder } from '../kube/event-recorder.js';

/**
 * The events about cluster facts an admin must fix (unusable mirror sets, unparsable trusted CAs, no
 * windows_exporter certificate): reported at start and with every read of the facts, each once per change.
 */
export function factProblems(
  events: EventRecorder,
  namespace: string,
): (facts: ClusterFacts) => Promise<void> {
  const reporters = [
    new MirrorProblemReporter(events),
    new CaBundleProblemReporter(events, namespace),
    new ExporterTlsProblemReporter(events, namespace),
  ];
  return async (facts) => {
    for (const r of reporters) await r.report(facts);
  };
}
