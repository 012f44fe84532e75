import test from 'ava';
import type { InstanceStatus } from '@wmco/core/internal';
import { nodeFacts, rows } from './status-rows.js';

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

test('status shows the conditions and, with the last error, the failed attempts and the next retry', (t) => {
  const soon = new Date(Date.now() + 30_000).toISOString();
  const failing: InstanceStatus = {
    ...status('10.0.0.1', 'win-a', 'Failed'),
    lastError: 'refused',
    failedAttempts: 2,
    nextRetry: soon,
  };
  const pendingKey: InstanceStatus = {
    ...status('10.0.0.2', 'win-b', 'Ready'),
    conditions: [
      { type: 'PrivateKeyPending', reason: 'PrivateKeyNotAccepted', message: 'add the key', since: soon },
    ],
  };
  const [a, b] = rows([failing, pendingKey], new Map(), false);
  t.is(a?.at(-2), '-');
  t.regex(a?.at(-1) ?? '', /^refused \(failed attempts: 2, next retry in (29|30)s\)$/);
  t.is(b?.at(-2), 'PrivateKeyPending');
  const [, wideB] = rows([failing, pendingKey], new Map(), true);
  t.is(wideB?.at(-2), 'PrivateKeyPending: add the key');
});

test("the SOURCE column names an embedder's own source; windows-instances entries and Machines as before", (t) => {
  const own: InstanceStatus = { ...status('10.0.0.3', 'win-c', 'Ready'), source: 'windows-hosts' };
  const byoh: InstanceStatus = { ...status('10.0.0.4', 'win-d', 'Ready'), source: 'byoh' };
  const old = status('10.0.0.5', 'win-e', 'Ready');
  const machine: InstanceStatus = {
    ...status('10.0.0.6', 'win-f', 'Ready'),
    source: 'machine',
    machine: 'ms-1',
  };
  const hostile: InstanceStatus = { ...status('10.0.0.7', 'win-g', 'Ready'), source: 'x\u001b[2J' };
  const cells = rows([own, byoh, old, machine, hostile], new Map(), false).map((r) => r[0]);
  t.deepEqual(cells.slice(0, 4), ['windows-hosts', 'BYOH', 'BYOH', 'Machine']);
  t.false(cells[4]?.includes('\u001b'), 'a control character from the ConfigMap is never printed');
});
