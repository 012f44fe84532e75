import test from 'ava';
import { signerRules } from './signer-rules.js';

const node = { commonName: 'system:node:win-1', organizations: ['system:nodes'], sans: [] };
const kubeletClient = signerRules('kubernetes.io/kube-apiserver-client-kubelet')!;
const kubeletServing = signerRules('kubernetes.io/kubelet-serving')!;
const apiClient = signerRules('kubernetes.io/kube-apiserver-client')!;

test('kubelet client: {digital signature, client auth} with or without key encipherment; nothing else', (t) => {
  t.is(kubeletClient(node, ['digital signature', 'key encipherment', 'client auth']), undefined);
  t.is(kubeletClient(node, ['client auth', 'digital signature']), undefined);
  t.is(
    kubeletClient(node, ['client auth']),
    'usages did not match [client auth digital signature key encipherment]',
  );
  t.is(
    kubeletClient({ ...node, organizations: ['other'] }, ['digital signature', 'client auth']),
    'subject organization is not system:nodes',
  );
  t.is(
    kubeletClient({ ...node, commonName: 'bob' }, ['digital signature', 'client auth']),
    'subject common name does not begin with system:node:',
  );
  t.is(
    kubeletClient({ ...node, sans: [{ type: 'dns', value: 'x' }] }, ['digital signature', 'client auth']),
    'DNS subjectAltNames are not allowed',
  );
});

test('kubelet serving needs a DNS or IP SAN and server auth', (t) => {
  t.is(
    kubeletServing({ ...node, sans: [{ type: 'ip', value: '10.0.0.1' }] }, [
      'digital signature',
      'server auth',
    ]),
    undefined,
  );
  t.is(kubeletServing(node, ['digital signature', 'server auth']), 'DNS or IP subjectAltName is required');
  t.is(
    kubeletServing({ ...node, sans: [{ type: 'dns', value: 'n' }] }, ['client auth']),
    'usages did not match [digital signature key encipherment server auth]',
  );
});

test('kube-apiserver-client needs client auth and allows only signature/encipherment besides', (t) => {
  t.is(
    apiClient({ commonName: 'u', organizations: [], sans: [] }, ['client auth', 'digital signature']),
    undefined,
  );
  t.is(
    apiClient({ commonName: 'u', organizations: [], sans: [] }, ['digital signature']),
    'missing required usage for client certificate: client auth',
  );
  t.is(
    apiClient({ commonName: 'u', organizations: [], sans: [] }, ['client auth', 'server auth']),
    'invalid usage for client certificate: server auth',
  );
  t.is(signerRules('example.com/other'), undefined, 'other signers are left alone');
});
