import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { Annotations } from '../../identity/node-metadata.js';
import type { ByohView } from './byoh-view.js';
import { ENTRY_PREFIX, NODE_PREFIX } from './byoh-view.js';
import { instanceLanes } from './instance-lanes.js';

function node(i: number, o: { version?: string; ready?: boolean; annotated?: boolean } = {}): V1Node {
  const ip = `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`;
  return {
    metadata: {
      name: `win-${i}`,
      annotations: {
        [Annotations.version]: o.version ?? '1.0.0',
        ...(o.annotated === false ? {} : { [Annotations.instanceAddress]: `host-${i}.example` }),
      },
    },
    status: {
      addresses: [{ type: 'InternalIP', address: ip }],
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
  };
}

/** A view over `nodes` that counts how often the node list is read. */
function countingView(nodes: V1Node[]): { view: ByohView; reads: () => number; change: () => void } {
  let reads = 0;
  let revision = 0;
  const view: ByohView = {
    instances: () => ({}),
    windowsNodes: () => {
      reads++;
      return nodes;
    },
    windowsNodesRevision: () => revision,
    node: (name) => nodes.find((n) => n.metadata?.name === name),
    privateKey: () => 'key',
  };
  return { view, reads: () => reads, change: () => revision++ };
}

test('an entry with a Ready node of this version is maintained; others join; nodes are removed', (t) => {
  const nodes = [
    node(0),
    node(1, { ready: false }),
    node(2, { version: '0.9.0' }),
    node(3, { annotated: false }),
  ];
  const lanes = instanceLanes(countingView(nodes).view, '1.0.0', 5);
  const laneOf = (key: string): string => lanes.laneOf(key);
  t.is(laneOf(`${ENTRY_PREFIX}host-0.example`), 'maintain');
  t.is(laneOf(`${ENTRY_PREFIX}10.0.0.1`), 'maintain', 'by internal IP too');
  t.is(laneOf(`${ENTRY_PREFIX}host-1.example`), 'join', 'not Ready');
  t.is(laneOf(`${ENTRY_PREFIX}host-2.example`), 'join', 'another version');
  t.is(laneOf(`${ENTRY_PREFIX}10.0.0.4`), 'maintain', 'a node listed by IP, without the annotation');
  t.is(laneOf(`${ENTRY_PREFIX}host-9.example`), 'join', 'no node yet');
  t.is(laneOf(`${NODE_PREFIX}win-0`), 'remove');
});

test('the node list is read once per change of the Windows nodes, not once per key (1,000 nodes)', (t) => {
  const nodes = Array.from({ length: 1000 }, (_, i) => node(i, { ready: i % 2 === 0 }));
  const { view, reads, change } = countingView(nodes);
  const q = instanceLanes(view, '1.0.0', 5);
  const laneOf = (key: string): string => q.laneOf(key);
  const assigned = nodes.map((_, i) => laneOf(`${ENTRY_PREFIX}host-${i}.example`));
  t.is(assigned.filter((l) => l === 'maintain').length, 500);
  t.is(reads(), 1);
  // A node turns Ready: the next question sees it.
  nodes[1] = node(1);
  change();
  t.is(laneOf(`${ENTRY_PREFIX}host-1.example`), 'maintain');
  t.is(reads(), 2);
});

test('the generation moves on when the joined entries change, not at every change of the Windows nodes', (t) => {
  const nodes = [node(0), node(1, { ready: false })];
  const { view, change } = countingView(nodes);
  const lanes = instanceLanes(view, '1.0.0', 5);
  const first = lanes.generation!();
  // A heartbeat or an annotation: the nodes changed, the joined entries did not.
  nodes[0] = { ...node(0), metadata: { ...node(0).metadata, labels: { touched: 'yes' } } };
  change();
  t.is(lanes.generation!(), first);
  // A node turns Ready: its entry moves to the maintain lane, so the generation moves on.
  nodes[1] = node(1);
  change();
  t.not(lanes.generation!(), first);
  t.is(lanes.laneOf(`${ENTRY_PREFIX}host-1.example`), 'maintain');
});
