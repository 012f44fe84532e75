import type { V1Node } from '@kubernetes/client-node';
import test from 'ava';
import { LIFECYCLE_PHASE_ANNOTATION } from './lifecycle-annotations.js';
import { NodeUpgrades, needsMaintenance } from './node-upgrades.js';
import { MemoryEventRecorder } from '../kube/event-recorder.js';
import type { HostTarget } from './join-deps.js';
import type { SourceInstance } from './node-source.js';
import type { UpgradeFlow, UpgradeOutcome } from './upgrade-flow.js';
import { carriedVersions } from './services-configmap-keeper.js';

const VERSION = 'windowsmachineconfig.openshift.io/version';

function node(annotations: Record<string, string>, ready = true): V1Node {
  return {
    metadata: { name: 'n', annotations },
    status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

test('a Ready node of another version is upgraded, never re-joined', (t) => {
  t.true(needsMaintenance(node({ [VERSION]: '1.0.0' }), '1.1.0'));
  t.false(needsMaintenance(node({ [VERSION]: '1.1.0' }), '1.1.0'));
});

test('a node without a version never finished its join: the join resumes it, not the upgrade', (t) => {
  t.false(needsMaintenance(node({}), '1.1.0'));
  t.false(needsMaintenance(node({ [VERSION]: '1.0.0' }, false), '1.1.0'));
});

test('a node left mid-upgrade is resumed whatever its readiness or version', (t) => {
  t.true(
    needsMaintenance(
      node({ [LIFECYCLE_PHASE_ANNOTATION]: 'WaitingReady', [VERSION]: '1.0.0' }, false),
      '1.1.0',
    ),
  );
  t.true(needsMaintenance(node({ [LIFECYCLE_PHASE_ANNOTATION]: 'Draining', [VERSION]: '1.1.0' }), '1.1.0'));
});

test('versions carried by nodes keep their services ConfigMaps', (t) => {
  const v = carriedVersions([
    node({ [VERSION]: '1.0.0', 'windowsmachineconfig.openshift.io/desired-version': '1.1.0' }),
    node({}),
  ]);
  t.deepEqual([...v].sort(), ['1.0.0', '1.1.0']);
});

test('a reboot request on a Ready, up-to-date node sends it through the flow; on a joining node it waits', (t) => {
  const asked = { 'windowsmachineconfig.openshift.io/reboot-requested': '2026-11-23T22:00:00Z' };
  t.true(needsMaintenance(node({ [VERSION]: '1.1.0', ...asked }), '1.1.0'));
  t.true(
    needsMaintenance(
      node({ [VERSION]: '1.1.0', 'windowsmachineconfig.openshift.io/reboot-required': '' }),
      '1.1.0',
    ),
  );
  t.false(needsMaintenance(node({ ...asked }), '1.1.0'));
});

test('a node waiting for the budget gets one MaintenanceWaiting event per wait, however the others change', async (t) => {
  const outcomes: UpgradeOutcome[] = [
    { result: 'waiting', max: 1, unavailable: ['a'] },
    { result: 'waiting', max: 1, unavailable: ['b'] },
    { result: 'waiting', max: 1, unavailable: ['c'] },
    { result: 'done', bytesSent: 0 },
    { result: 'waiting', max: 1, unavailable: ['d'] },
  ];
  const flow = { upgrade: () => Promise.resolve(outcomes.shift()!) } as unknown as UpgradeFlow;
  const events = new MemoryEventRecorder();
  const upgrades = new NodeUpgrades(flow, events, 30_000);
  const target = {
    address: '10.0.0.5',
    username: 'Administrator',
    privateKeyPem: '',
  } as unknown as HostTarget;
  const instance = {} as SourceInstance;
  for (let i = 0; i < 5; i++)
    await upgrades.run(node({ [VERSION]: '1.0.0' }), target, new AbortController().signal, instance);
  t.deepEqual(
    events.events.map((e) => e.message.split('now ')[1]),
    ['a', 'd'],
    'the first wait, and the next one after the node was done',
  );
});
