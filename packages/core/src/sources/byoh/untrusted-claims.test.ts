import test from 'ava';
import type { V1Node } from '@kubernetes/client-node';
import { untrustedClaimants } from './untrusted-claims.js';

const OWNER = 'windowsmachineconfig.openshift.io/instance-address';
const ENTRY = { address: 'win-a.example.com', ipv4Address: '10.0.0.5' };

function node(name: string, owner?: string, ip?: string): V1Node {
  return {
    metadata: { name, ...(owner === undefined ? {} : { annotations: { [OWNER]: owner } }) },
    ...(ip === undefined ? {} : { status: { addresses: [{ type: 'InternalIP', address: ip }] } }),
  };
}

test('Nodes claiming the entry by their own annotation or InternalIP, not joined as it and not recorded, are listed', (t) => {
  const nodes = [
    node('win-a', ENTRY.address, ENTRY.ipv4Address), // the Node the join decided: not a claimant
    node('win-s', ENTRY.address, '10.9.9.9'), // claims by annotation
    node('win-t', undefined, ENTRY.ipv4Address), // claims by address
    node('win-r', ENTRY.address), // recorded for some instance: the record guard reports it instead
    node('win-b', '10.0.0.6', '10.0.0.6'), // another instance's
    node('worker-0'),
  ];
  t.deepEqual(
    untrustedClaimants(nodes, ENTRY, 'win-a', (n) => n === 'win-r'),
    ['win-s', 'win-t'],
  );
  t.deepEqual(
    untrustedClaimants([node('win-a', ENTRY.address)], ENTRY, 'win-a', () => false),
    [],
  );
});
