import {
  CaBundleProblemReporter,
  ExporterTlsProblemReporter,
  MirrorProblemReporter,
  type ClusterFacts,
} from '@wmco/core/internal';
import { type EventRecorder } from '@wmco/core';

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
