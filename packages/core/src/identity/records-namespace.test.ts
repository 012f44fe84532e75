import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { RECORDS_NAMESPACE_ANNOTATION, recordedElsewhere } from './records-namespace.js';

const node = (namespace?: string): V1Node => ({
  metadata: {
    name: 'win-a',
    annotations: namespace === undefined ? {} : { [RECORDS_NAMESPACE_ANNOTATION]: namespace },
  },
});

test('a node is another controller’s only when it names another namespace', (t) => {
  t.true(recordedElsewhere(node('windows-hosts'), 'openshift-windows-machine-config-operator'));
  t.false(recordedElsewhere(node('windows-hosts'), 'windows-hosts'));
  t.false(recordedElsewhere(node(), 'windows-hosts'), 'joined before the annotation: looked at as before');
  t.false(recordedElsewhere(node(''), 'windows-hosts'));
});
