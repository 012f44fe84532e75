import test from 'ava';
import type { InstanceStatus } from '@wmco/core/internal';
import { nodeFacts, rows } from './status-command.js';

const status = (address: string, node: string, phase: InstanceStatus['phase']): InstanceStatus => ({
  address,
  node,
  phase,
  since: new Date().toISOString(),
  phaseSeconds: {},
});

test('status shows each node version and its upgrade or reboot step', (t) => {
  const facts = nodeFacts([
    {
      metadata: {
        name: 'win-a',
        annotations: {
          'windowsmachineconfig.openshift.io/version': '1.0.0',
          'windowsmachineconfig.openshift.io/lifecycle-phase': 'Draining',
        },
      },
    },
    {
      metadata: {
        name: 'win-b',
        annotations: {
          'windowsmachineconfig.openshift.io/version': '1.1.0',
          'windowsmachineconfig.openshift.io/reboot-requested': '2026-11-23T22:00:00Z',
        },
      },
    },
    { metadata: { name: 'win-c', annotations: { 'windowsmachineconfig.openshift.io/version': '1.1.0' } } },
  ]);
  const out = rows(
    [
      status('10.0.0.1', 'win-a', 'Upgrading'),
      status('10.0.0.2', 'win-b', 'Ready'),
      status('10.0.0.3', 'win-c', 'Ready'),
      status('10.0.0.4', 'win-d', 'Configuring'),
    ],
    facts,
    false,
  );
  t.deepEqual(
    out.map((r) => r.slice(0, 6)),
    [
      ['BYOH', '10.0.0.1', 'win-a', 'Upgrading', '1.0.0', 'Draining'],
      ['BYOH', '10.0.0.2', 'win-b', 'Ready', '1.1.0', 'RebootRequested'],
      ['BYOH', '10.0.0.3', 'win-c', 'Ready', '1.1.0', '-'],
      ['BYOH', '10.0.0.4', 'win-d', 'Configuring', '-', '-'],
    ],
  );
});
