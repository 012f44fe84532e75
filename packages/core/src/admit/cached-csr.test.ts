import test from 'ava';
import type { V1CertificateSigningRequest } from '@kubernetes/client-node';
import { approvalMessage, approvedClientCsr, APPROVAL_REASON } from './approval-record.js';
import { cachedCsr } from './cached-csr.js';
import { csrDecided } from '../controllers/csr-reconciler.js';

const full: V1CertificateSigningRequest = {
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name: 'csr-a', resourceVersion: '7', uid: 'u', labels: { a: 'b' } },
  spec: {
    request: 'LS0tLS1CRUdJTi'.repeat(100),
    signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
    usages: ['client auth'],
    username: 'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper',
  },
  status: {
    certificate: 'LS0tLS1CRUdJTi'.repeat(200),
    conditions: [
      {
        type: 'Approved',
        status: 'True',
        reason: APPROVAL_REASON,
        message: approvalMessage('win-a', '10.0.0.5'),
        lastUpdateTime: new Date(0),
      },
    ],
  },
};

test('the cached CSR keeps name, resourceVersion, signer and conditions, not the request or certificate', (t) => {
  t.deepEqual(cachedCsr(full), {
    metadata: { name: 'csr-a', resourceVersion: '7' },
    spec: { signerName: 'kubernetes.io/kube-apiserver-client-kubelet' },
    status: {
      conditions: [
        { type: 'Approved', reason: APPROVAL_REASON, message: approvalMessage('win-a', '10.0.0.5') },
      ],
    },
  });
  t.true(JSON.stringify(cachedCsr(full)).length < JSON.stringify(full).length / 5);
});

test('what the controllers read from the cache answers the same for the cached CSR', (t) => {
  const kept = cachedCsr(full);
  t.is(csrDecided(kept), csrDecided(full));
  t.is(approvedClientCsr([kept], 'win-a', '10.0.0.5'), 'csr-a');
  t.is(approvedClientCsr([kept], 'win-a', '10.0.0.6'), undefined);
  const pending = cachedCsr({ ...full, status: {} });
  t.false(csrDecided(pending));
});
