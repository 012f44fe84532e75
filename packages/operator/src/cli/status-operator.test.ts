import test from 'ava';
import { operatorLines, parseOperatorStatus } from './status-operator.js';

const condition = (type: string, status: string, reason = 'AsExpected', message = 'ok'): object => ({
  type,
  status,
  reason,
  message,
  lastTransitionTime: '2026-11-27T00:00:00.000Z',
});

test('the operator line and one line per condition that is not as it should be', (t) => {
  const data = {
    operator: JSON.stringify({
      version: '1.2.0',
      conditions: [
        condition('Available', 'False', 'PrivateKeyMissing', 'no key'),
        condition('Progressing', 'False'),
        condition('Degraded', 'True', 'PrivateKeyMissing', 'no key'),
        condition('PrivateKeyReady', 'False', 'PrivateKeyMissing', 'no key'),
        condition('ClusterSupported', 'True'),
      ],
    }),
  };
  const status = parseOperatorStatus(data, () => t.fail('no warning'));
  t.truthy(status);
  t.deepEqual(operatorLines(status!), [
    'OPERATOR 1.2.0: Available=False Progressing=False Degraded=True',
    '  Available=False (PrivateKeyMissing): no key',
    '  Degraded=True (PrivateKeyMissing): no key',
    '  PrivateKeyReady=False (PrivateKeyMissing): no key',
  ]);
});

test('an operator key that is not the operator status is reported and skipped; control characters escaped', (t) => {
  const warnings: string[] = [];
  t.is(
    parseOperatorStatus({ operator: '[1]' }, (w) => warnings.push(w)),
    undefined,
  );
  t.is(
    parseOperatorStatus({}, (w) => warnings.push(w)),
    undefined,
  );
  t.is(warnings.length, 1);
  const status = parseOperatorStatus(
    { operator: JSON.stringify({ conditions: [condition('Degraded', 'True', 'X', 'a\u001b[2Jb')] }) },
    () => undefined,
  );
  t.false(operatorLines(status!).join('\n').includes('\u001b'));
});
