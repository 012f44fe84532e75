import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { Annotations, Labels } from '../../identity/node-metadata.js';
import { windowsMachine, type MachineResource } from './machine-object.js';
import { machineTakeoverCandidate } from './machine-takeover.js';

// Issue 29 item 2, Machines: only machine-api's link (the Machine's nodeRef) makes a Node a takeover
// candidate; what the Node writes (its InternalIP, its labels) never does.

function machine(o: { nodeRef?: string; labels?: Record<string, string> } = {}): MachineResource {
  return {
    metadata: {
      name: 'win-1',
      namespace: 'openshift-machine-api',
      uid: 'uid-1',
      labels: { 'machine.openshift.io/os-id': 'Windows', ...o.labels },
    },
    status: {
      phase: 'Running',
      addresses: [{ type: 'InternalIP', address: '10.0.0.8' }],
      ...(o.nodeRef === undefined ? {} : { nodeRef: { name: o.nodeRef } }),
    },
  };
}

function node(
  name: string,
  o: { annotations?: Record<string, string>; labels?: Record<string, string> } = {},
): V1Node {
  return {
    metadata: {
      name,
      labels: o.labels ?? {},
      annotations: { [Annotations.version]: '10.19.0-8a2b3c4', ...o.annotations },
    },
    status: { addresses: [{ type: 'InternalIP', address: '10.0.0.8' }] },
  };
}

const none = (): boolean => false;
const m = windowsMachine(machine({ nodeRef: 'win-1' }));

test('the Node machine-api linked to the Machine, joined by another operator and unrecorded, is a candidate', (t) => {
  t.true(machineTakeoverCandidate(m, node('win-1'), none));
});

test('a Node at the Machine’s address that machine-api did not link is not a candidate', (t) => {
  t.false(machineTakeoverCandidate(windowsMachine(machine()), node('win-1'), none));
  t.false(machineTakeoverCandidate(windowsMachine(machine({ nodeRef: 'other' })), node('win-1'), none));
});

test('a Node this operator owns, records, or that is a BYOH node or was never joined is not a candidate', (t) => {
  t.false(
    machineTakeoverCandidate(m, node('win-1', { annotations: { [Annotations.machine]: 'x/y' } }), none),
  );
  t.false(
    machineTakeoverCandidate(m, node('win-1', { annotations: { [Annotations.instanceAddress]: 'a' } }), none),
  );
  t.false(machineTakeoverCandidate(m, node('win-1', { labels: { [Labels.byoh]: 'true' } }), none));
  t.false(machineTakeoverCandidate(m, node('win-1', { annotations: { [Annotations.version]: '' } }), none));
  t.false(machineTakeoverCandidate(m, node('win-1'), (name) => name === 'win-1'));
});

test('an ignored Machine’s node is not a candidate', (t) => {
  const ignored = machine({
    nodeRef: 'win-1',
    labels: { 'windowsmachineconfig.openshift.io/ignore': 'true' },
  });
  t.false(machineTakeoverCandidate(windowsMachine(ignored), node('win-1'), none));
});
