import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { StateHost, stateMatching, testDeps } from '../../lifecycle/lifecycle.test-helper.js';
import { NodeNotOwnedError } from '../../identity/node-ownership.js';
import { DisruptionBudget } from '../../lifecycle/disruption-budget.js';
import { busyNodes } from '../../lifecycle/upgradeable.js';
import { UpgradeFlow } from '../../lifecycle/upgrade-flow.js';
import { byohSourceInstance } from '../byoh/byoh-instance.js';
import { machineSourceInstance } from './machine-instance.js';
import type { WindowsMachine } from './machine-object.js';

const machine = (name: string): WindowsMachine => ({
  name,
  namespace: 'openshift-machine-api',
  uid: `uid-${name}`,
  ipv4: '10.0.0.8',
  phase: 'Running',
  nodeRef: name,
  deleting: false,
  ignored: false,
  windows: true,
  machineSet: 'win',
});

function machineNode(owner: string, extra: Record<string, string> = {}): V1Node {
  return {
    metadata: {
      name: 'win-1',
      annotations: {
        'windowsmachineconfig.openshift.io/machine': `openshift-machine-api/${owner}`,
        'windowsmachineconfig.openshift.io/version': '0.0.9',
        ...extra,
      },
    },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

const target = { address: '10.0.0.8', ipv4: '10.0.0.8', username: 'Administrator', privateKeyPem: 'k' };
const blank = {
  directories: [],
  files: [],
  services: [],
  envVars: {},
  routes: [],
  firewallRules: [],
  features: [],
};

test('a Machine instance owns only its own Machine node, and records status under machine.<name>', (t) => {
  const s = machineSourceInstance(machine('win-1'));
  t.true(s.owns(machineNode('win-1')));
  t.false(s.owns(machineNode('win-2')));
  t.false(
    s.owns(machineNode('win-1', { 'windowsmachineconfig.openshift.io/instance-address': '10.0.0.8' })),
    'a node a BYOH instance claimed is not the Machine’s',
  );
  t.deepEqual(s.status, { key: 'machine.win-1', extra: { source: 'machine', machine: 'win-1' } });
});

test('the upgrade flow refuses a Machine node for a BYOH instance and for another Machine, before any grant', async (t) => {
  const node = machineNode('win-1');
  const budget = new DisruptionBudget({ kind: 'count', count: 1 }, () => [node]);
  const flow = new UpgradeFlow(testDeps(new StateHost(stateMatching(blank))), budget, { drainTimeoutMs: 10 });
  const signal = new AbortController().signal;
  const byoh = byohSourceInstance('wmco', { address: '10.0.0.8', ipv4Address: '10.0.0.8' });
  await t.throwsAsync(flow.upgrade({ node, target, signal, instance: byoh }), {
    instanceOf: NodeNotOwnedError,
  });
  const other = machineSourceInstance(machine('win-2'));
  await t.throwsAsync(flow.upgrade({ node, target, signal, instance: other }), {
    instanceOf: NodeNotOwnedError,
    message: /Machine openshift-machine-api\/win-2/,
  });
  t.deepEqual(budget.holding(), []);
  const out = await new UpgradeFlow(
    testDeps(new StateHost(stateMatching(blank))),
    new DisruptionBudget({ kind: 'count', count: 1 }, () => [node, { metadata: { name: 'byoh-x' } }]),
    { drainTimeoutMs: 10 },
  ).upgrade({ node, target, signal, instance: machineSourceInstance(machine('win-1')) });
  t.deepEqual(
    out,
    { result: 'waiting', max: 1, unavailable: ['byoh-x'] },
    'its own Machine asks the one budget',
  );
});

test('a Machine node not on this version keeps the operator busy (Upgradeable False)', (t) => {
  t.deepEqual(busyNodes([machineNode('win-1')], '0.1.0'), ['win-1']);
  t.deepEqual(
    busyNodes([machineNode('win-1', { 'windowsmachineconfig.openshift.io/version': '0.1.0' })], '0.1.0'),
    [],
  );
});
