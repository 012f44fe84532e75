import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { Annotations } from '../../identity/node-metadata.js';
import { machineNodeState, planMachine, type MachinePlanInput } from './machine-plan.js';
import type { WindowsMachine } from './machine-object.js';

const HASH = 'a'.repeat(64);

function machine(over: Partial<WindowsMachine> = {}): WindowsMachine {
  return {
    name: 'win-abcde',
    namespace: 'openshift-machine-api',
    uid: 'u1',
    ipv4: '10.0.0.7',
    phase: 'Provisioned',
    nodeRef: undefined,
    deleting: false,
    ignored: false,
    windows: true,
    machineSet: 'win',
    ...over,
  };
}

function node(annotations: Record<string, string>, ready = true): V1Node {
  const conditions = [{ type: 'Ready', status: ready ? 'True' : 'False' }];
  return { metadata: { name: 'win-abcde', annotations }, status: { conditions } };
}

function input(over: Partial<MachinePlanInput> = {}): MachinePlanInput {
  return {
    machine: machine(),
    node: undefined,
    publicKeyHash: HASH,
    version: '1.0.0',
    machineApi: true,
    hostname: () => undefined,
    sshUser: 'Administrator',
    ...over,
  };
}

test('a provisioned Machine without a node is joined, renamed first where the platform renames', (t) => {
  t.deepEqual(planMachine(input()), { action: 'join', reason: 'configure as Administrator at 10.0.0.7' });
  t.deepEqual(planMachine(input({ hostname: (n) => n, sshUser: 'capi' })), {
    action: 'join',
    reason: 'configure as capi at 10.0.0.7, renaming the host to win-abcde first',
    hostname: 'win-abcde',
  });
});

test('a node with this version and key gets its drift check, Ready or not; another version is upgraded in place', (t) => {
  const current = node({ [Annotations.version]: '1.0.0', [Annotations.pubKeyHash]: HASH });
  t.is(planMachine(input({ node: current })).action, 'check-drift');
  const notReady = planMachine(input({ node: node(current.metadata?.annotations ?? {}, false) }));
  t.is(notReady.action, 'check-drift');
  t.regex(notReady.reason, /not Ready: drift check/);
  const older = node({ [Annotations.version]: '0.9.0', [Annotations.pubKeyHash]: HASH });
  const p = planMachine(input({ node: older }));
  t.is(p.action, 'upgrade');
  t.regex(p.reason, /the node has version 0\.9\.0, not 1\.0\.0: cordon, drain/);
  t.is(machineNodeState(older, HASH, '1.0.0'), 'other-version');
});

test('a node configured with another key means replacing the Machine', (t) => {
  const other = node({ [Annotations.version]: '1.0.0', [Annotations.pubKeyHash]: 'b'.repeat(64) });
  const p = planMachine(input({ node: other }));
  t.is(p.action, 'replace');
  t.regex(p.reason, /another private key/);
  t.is(machineNodeState(other, HASH, '1.0.0'), 'other-key');
  t.is(machineNodeState(undefined, HASH, '1.0.0'), 'not-joined');
});

test('Machines the reconciler leaves alone say why', (t) => {
  t.deepEqual(planMachine(input({ machine: machine({ ignored: true }) })), {
    action: 'ignore',
    reason: 'labelled windowsmachineconfig.openshift.io/ignore=true',
  });
  t.deepEqual(planMachine(input({ machine: machine({ phase: 'Provisioning' }) })), {
    action: 'wait',
    reason: 'not provisioned yet',
  });
  t.deepEqual(planMachine(input({ machine: machine({ ipv4: undefined }) })), {
    action: 'wait',
    reason: 'no IPv4 InternalIP yet',
  });
  t.is(planMachine(input({ machine: machine({ deleting: true }) })).action, 'nothing');
  t.is(planMachine(input({ publicKeyHash: undefined })).action, 'wait');
  t.regex(planMachine(input({ machineApi: false })).reason, /no Machine API/);
});

test('a Machine name the platform cannot use is reported, not joined', (t) => {
  const p = planMachine(
    input({
      hostname: () => {
        throw new Error('vSphere computer names have at most 15 characters');
      },
    }),
  );
  t.is(p.action, 'nothing');
  t.regex(p.reason, /cannot be used: vSphere computer names have at most 15 characters/);
});

// The two cases where the plan once disagreed with the reconciler (issue 26).
test('a current node with a reboot request or left mid-way goes through the maintenance flow', (t) => {
  const current = { [Annotations.version]: '1.0.0', [Annotations.pubKeyHash]: HASH };
  const reboot = planMachine(
    input({ node: node({ ...current, 'windowsmachineconfig.openshift.io/reboot-requested': 'now' }) }),
  );
  t.is(reboot.action, 'reboot');
  const midway = { ...current, 'windowsmachineconfig.openshift.io/lifecycle-phase': 'Configuring' };
  t.deepEqual(planMachine(input({ node: node(midway, false) })), {
    action: 'resume',
    reason: 'the operator left the node in phase Configuring: resume that pass',
  });
});

test('a node of another version that is not Ready is configured again by the join, not upgraded', (t) => {
  const older = node({ [Annotations.version]: '0.9.0', [Annotations.pubKeyHash]: HASH }, false);
  const p = planMachine(input({ node: older }));
  t.is(p.action, 'join');
  t.regex(p.reason, /configure again .*version 0\.9\.0, not 1\.0\.0, and is not Ready/);
});
