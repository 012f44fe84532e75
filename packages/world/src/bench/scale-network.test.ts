import test from 'ava';
import { MAX_SCALE_NODES, scaleHybridNetwork } from './scale-network.js';

/** /23 node subnets in a network. */
function subnets(cidr: string): number {
  return 2 ** (23 - Number(cidr.split('/')[1]));
}

test('the hybrid network has a /23 for every node: 1,000 nodes need more than the default /14', (t) => {
  t.is(scaleHybridNetwork(100), '10.160.0.0/14');
  t.is(scaleHybridNetwork(512), '10.160.0.0/14');
  t.is(scaleHybridNetwork(1000), '10.160.0.0/13');
  t.true(subnets(scaleHybridNetwork(1000)) >= 1000);
  t.is(scaleHybridNetwork(MAX_SCALE_NODES), '10.160.0.0/11');
  t.true(subnets(scaleHybridNetwork(MAX_SCALE_NODES)) >= MAX_SCALE_NODES);
});

test('more nodes than it can hold is a clear error', (t) => {
  t.throws(() => scaleHybridNetwork(MAX_SCALE_NODES + 1), { message: /holds 1-4096 nodes, not 4097/ });
  t.throws(() => scaleHybridNetwork(0));
});
