import test from 'ava';
import type { V1CertificateSigningRequest, V1Node } from '@kubernetes/client-node';
import { approvalMessage, approvedClientCsr } from '../admit/approval-record.js';
import { assertOwned, NodeNotOwnedError, nodeOwner, ownedBy } from './node-ownership.js';

const OWNER = 'windowsmachineconfig.openshift.io/instance-address';
const linux: V1Node = { metadata: { name: 'worker-0' } };
const owned: V1Node = { metadata: { name: 'win-a', annotations: { [OWNER]: '10.0.0.5' } } };

test('a Node belongs to the instance written in its instance-address annotation, and only then', (t) => {
  t.is(nodeOwner(owned), '10.0.0.5');
  t.true(ownedBy(owned, '10.0.0.5'));
  t.false(ownedBy(owned, '10.0.0.6'));
  t.is(nodeOwner(linux), undefined);
  t.false(ownedBy(linux, '10.0.0.5'));
});

test("touching a Node that is not the instance's is refused with a message naming node and owner", (t) => {
  t.notThrows(() => assertOwned(owned, 'remove'));
  t.notThrows(() => assertOwned(owned, 're-key', '10.0.0.5'));
  const a = t.throws(() => assertOwned(linux, 'remove'), { instanceOf: NodeNotOwnedError });
  t.is(a.message, 'will not remove node worker-0: it was not joined by this operator');
  const b = t.throws(() => assertOwned(owned, 're-key', '10.0.0.6'));
  t.is(b.message, 'will not re-key node win-a for instance 10.0.0.6: it belongs to instance 10.0.0.5');
});

function csr(name: string, message: string, reason = 'WMCOApprove'): V1CertificateSigningRequest {
  return {
    metadata: { name },
    spec: { request: '', signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: [] },
    status: { conditions: [{ type: 'Approved', status: 'True', reason, message }] },
  };
}

test('an approval names its node and instance, and is found again only for both', (t) => {
  const csrs = [
    csr('csr-admin', approvalMessage('win-a', '10.0.0.5'), 'KubectlApprove'),
    csr('csr-b', approvalMessage('win-a', '10.0.0.6')),
    csr('csr-a', approvalMessage('win-a', '10.0.0.5')),
  ];
  t.is(approvedClientCsr(csrs, 'win-a', '10.0.0.5'), 'csr-a');
  t.is(approvedClientCsr(csrs, 'win-a', '10.0.0.7'), undefined);
  t.is(approvedClientCsr(csrs, 'win-x', '10.0.0.5'), undefined);
});
