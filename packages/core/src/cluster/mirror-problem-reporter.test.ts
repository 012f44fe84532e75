import test from 'ava';
import { MemoryEventRecorder } from '../kube/event-recorder.js';
import { MirrorProblemReporter } from './mirror-problem-reporter.js';

const problem = (message: string): { kind: string; name: string; message: string } => ({
  kind: 'ImageTagMirrorSet',
  name: 'itms',
  message,
});

test('each skipped entry is reported once, on its object; a fixed and returning problem again', async (t) => {
  const events = new MemoryEventRecorder();
  const r = new MirrorProblemReporter(events);
  await r.report({ mirrorProblems: [problem('a'), problem('b')] });
  await r.report({ mirrorProblems: [problem('a'), problem('b')] });
  t.deepEqual(
    events.events.map((e) => [e.object.kind, e.object.name, e.type, e.reason, e.message]),
    [
      ['ImageTagMirrorSet', 'itms', 'Warning', 'InvalidMirrorEntry', 'a'],
      ['ImageTagMirrorSet', 'itms', 'Warning', 'InvalidMirrorEntry', 'b'],
    ],
  );
  await r.report({ mirrorProblems: [] });
  await r.report({});
  await r.report({ mirrorProblems: [problem('a')] });
  t.is(events.events.length, 3);
});
